import { describe, expect, it } from 'vitest';
import {
  CUT_EXPORT_WORDS,
  countsByForm,
  erasedWords,
  exportDocument,
  exportFileName,
  foundWords,
  IP_STORAGE_CHOICES,
  inPrivacyWords,
  isCutExport,
  privacyFailureWords,
} from '#app/privacy-model.ts';
import { ApiError } from '#client/client.ts';

const row = (formId: string, formName: string, id: string) => ({ formId, formName, id });

describe('the Privacy screen model', () => {
  it('counts the export document by form, forms by name, and says it', () => {
    const exported = exportDocument({
      submissions: [
        row('f0', 'Waitlist', 'c'),
        row('f1', 'Contact', 'a'),
        row('f1', 'Contact', 'b'),
      ],
    });
    const counts = countsByForm(exported);
    expect(counts).toEqual([
      { formId: 'f1', name: 'Contact', count: 2 },
      { formId: 'f0', name: 'Waitlist', count: 1 },
    ]);
    expect(foundWords('ada@example.com', counts)).toBe(
      '3 submissions in 2 forms hold ada@example.com.',
    );
    expect(foundWords('ada@example.com', [counts[1]!])).toBe(
      '1 submission in 1 form holds ada@example.com.',
    );
    expect(foundWords('ada@example.com', [])).toBe(
      "No submission of the team's forms holds ada@example.com.",
    );
  });

  it('reads the document parsed or as text, and refuses anything else', () => {
    expect(exportDocument('{"submissions":[]}')).toEqual({ submissions: [] });
    expect(() => exportDocument({ items: [] })).toThrow('not the document expected');
    expect(() => exportDocument(null)).toThrow('not the document expected');
  });

  it('says what an erase did, form by form', () => {
    expect(
      erasedWords({
        count: 3,
        forms: [
          { name: 'Waitlist', count: 1 },
          { name: 'Contact', count: 2 },
        ],
      }),
    ).toBe('Erased 3 submissions: 2 in Contact, 1 in Waitlist.');
    expect(erasedWords({ count: 0, forms: [] })).toBe(
      'Nothing was left to erase: no submission holds this address.',
    );
  });

  it('names the download for what it is, without characters a file system refuses', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    expect(exportFileName('Ada.Lovelace+x@example.com', now)).toBe(
      'submissions-of-Ada.Lovelace+x@example.com-2026-11-26.json',
    );
    expect(exportFileName('a/b\\c:d"e@example.com', now)).toBe(
      'submissions-of-a_b_c_d_e@example.com-2026-11-26.json',
    );
  });

  it('tells a cut export (no answer status: a parse or read failure) from a refusal', () => {
    expect(isCutExport(new SyntaxError('Unexpected end of JSON input'))).toBe(true);
    expect(isCutExport(new TypeError('terminated'))).toBe(true);
    expect(() => exportDocument(undefined)).toThrow();
    expect(isCutExport(new ApiError(0, 'network', 'x'))).toBe(false);
    expect(isCutExport(new ApiError(503, 'unavailable', 'x'))).toBe(false);
    expect(CUT_EXPORT_WORDS).toMatch(/Export CSV.*Erase still reaches them all/);
  });

  it('says 503 incomplete with what to do; other failures as any action says them', () => {
    const incomplete = new ApiError(503, 'incomplete', 'Erased 2 before the time limit');
    expect(privacyFailureWords(incomplete)).toMatch(/press Erase again to finish/);
    expect(inPrivacyWords(incomplete)).toMatchObject({ status: 503, code: 'incomplete' });
    expect(inPrivacyWords(incomplete).message).toMatch(/press Erase again/);
    const refused = new ApiError(400, 'invalid_request', 'bad', [
      { path: 'email', message: 'Must be an email address' },
    ]);
    expect(privacyFailureWords(refused)).toBe('Must be an email address');
    expect(privacyFailureWords(new ApiError(0, 'network', 'x'))).toMatch(/could not be reached/);
  });

  it('offers both ipStorage values', () => {
    expect(IP_STORAGE_CHOICES).toEqual(['address', 'keyedHash']);
  });
});
