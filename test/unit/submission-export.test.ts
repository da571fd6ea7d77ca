import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '#domain/form-model.ts';
import {
  AnswerColumns,
  exportFileName,
  exportHeader,
  exportQuery,
  exportRow,
} from '#domain/submission-export.ts';
import type { Submission } from '#domain/submission-model.ts';

const fields = (...ids: string[]): FieldDefinition[] => ids.map((id) => ({ id, type: 'text' }));

function submission(overrides: Partial<Submission> = {}): Submission {
  return {
    id: '01a20799-ee3a-7946-b5e7-cbed43dd04de',
    formId: 'dc46a893-9f16-493e-b3ce-ff4aaa277319',
    data: {},
    meta: { userAgent: 'ua', referrer: '' },
    read: false,
    starred: false,
    isSpam: false,
    isTest: false,
    createdAt: '2026-11-23T08:51:30.790Z',
    ...overrides,
  };
}

describe('AnswerColumns', () => {
  it('starts with the field ids in order, then other names by first appearance', () => {
    const columns = new AnswerColumns(fields('email', 'name'));
    columns.note([
      submission({ data: { name: 'Ada', company: 'Acme' } }),
      submission({ data: { email: 'a@b.c', referral: 'x', company: 'B' } }),
    ]);
    columns.note([submission({ data: { phone: '1' } })]);
    expect(columns.names).toEqual(['email', 'name', 'company', 'referral', 'phone']);
  });

  it('takes names new in one submission in code-point order, whatever the map order', () => {
    const columns = new AnswerColumns(null);
    columns.note([submission({ data: { zeta: '', Alpha: '', alpha: '', beta: '' } })]);
    expect(columns.names).toEqual(['Alpha', 'alpha', 'beta', 'zeta']);
  });

  it('never makes a column of the _invalid report', () => {
    const columns = new AnswerColumns(fields('email'));
    columns.note([submission({ data: { email: 'x', _invalid: '[]' } })]);
    expect(columns.names).toEqual(['email']);
  });

  it('keeps field columns with no answers (fields may be null or empty)', () => {
    expect(new AnswerColumns(fields('a', 'b')).names).toEqual(['a', 'b']);
    expect(new AnswerColumns(null).names).toEqual([]);
    expect(new AnswerColumns([]).names).toEqual([]);
  });

  it('caps the names beyond the fields and counts what it left out', () => {
    const columns = new AnswerColumns(fields('f1', 'f2'), 3);
    columns.note([submission({ data: { f1: '', a: '', b: '' } })]);
    columns.note([submission({ data: { c: '', d: '', e: '' } }), submission({ data: { a: '' } })]);
    expect(columns.names).toEqual(['f1', 'f2', 'a', 'b', 'c']);
    expect(columns.droppedCount).toBe(2);
  });
});

describe('exportHeader and exportRow', () => {
  it('follows docs/submissions.md#csv-columns', () => {
    expect(exportHeader(['email', 'extra'])).toEqual([
      'id',
      'createdAt',
      'email',
      'extra',
      'read',
      'starred',
      'isSpam',
      'isTest',
      'ip',
      'country',
      'deviceClass',
      'userAgent',
      'referrer',
      'files',
    ]);
  });

  it('puts each answer under its name, an empty cell where there is none, then flags and meta', () => {
    const row = exportRow(
      submission({
        data: { email: 'a@b.c', extra: 'x', _invalid: '[]' },
        read: true,
        starred: true,
        isTest: true,
        meta: {
          ip: '203.0.113.9',
          country: 'DE',
          deviceClass: 'mobile',
          userAgent: 'Mozilla/5.0',
          referrer: 'https://example.com/contact',
          files: [
            { name: 'cv.pdf', mime: 'application/pdf', size: 10 },
            { name: 'me.png', mime: 'image/png', size: 9 },
          ],
        },
      }),
      ['email', 'missing', 'extra'],
    );
    expect(row).toEqual([
      '01a20799-ee3a-7946-b5e7-cbed43dd04de',
      '2026-11-23T08:51:30.790Z',
      'a@b.c',
      '',
      'x',
      'true',
      'true',
      'false',
      'true',
      '203.0.113.9',
      'DE',
      'mobile',
      'Mozilla/5.0',
      'https://example.com/contact',
      'cv.pdf; me.png',
    ]);
    expect(row).toHaveLength(exportHeader(['email', 'missing', 'extra']).length);
  });

  it('shows file names without hidden characters, whenever they were stored', () => {
    const row = exportRow(
      submission({
        data: {},
        meta: {
          userAgent: '',
          referrer: '',
          files: [{ name: 'invoice\u202Efdp.exe\u200B', mime: 'application/pdf', size: 1 }],
        },
      }),
      [],
    );
    expect(row.at(-1)).toBe('invoicefdp.exe');
  });

  it('leaves meta that was not kept empty (no IP with dontStoreIp, no country, no files)', () => {
    expect(exportRow(submission(), []).slice(-6)).toEqual(['', '', '', 'ua', '', '']);
  });

  it('reads only own answers: fields named like Object members are empty when unanswered', () => {
    const row = exportRow(submission({ data: { toString: 'mine' } }), [
      'constructor',
      'toString',
      'hasOwnProperty',
    ]);
    expect(row.slice(2, 5)).toEqual(['', 'mine', '']);
  });
});

describe('the header by labels and the file columns (header=labels, docs/submissions.md#csv-columns)', () => {
  const form: FieldDefinition[] = [
    { id: 'name', type: 'text', label: 'Your name' },
    { id: 'first', type: 'text', label: ' Name ' },
    { id: 'last', type: 'text', label: 'Name' },
    { id: 'phone', type: 'tel' },
    { id: 'cv', type: 'file', label: 'CV' },
  ];

  it('names fields by their labels (by id when two share one), others by name, fixed columns in words', () => {
    expect(
      exportHeader(['name', 'first', 'last', 'phone', 'cv', 'extra'], { fields: form }),
    ).toEqual([
      'Submission',
      'Received',
      'Your name',
      'Name (first)',
      'Name (last)',
      'phone',
      'CV',
      'extra',
      'Read',
      'Starred',
      'Spam',
      'Test',
      'IP address',
      'Country',
      'Device',
      'Browser (user agent)',
      'Page (referrer)',
      'Files',
    ]);
    expect(exportHeader(['name'], { fields: null })).toEqual(
      expect.arrayContaining(['Submission', 'name', 'Files']),
    );
  });

  const page = (id: string) => `https://forms.example.com/app/forms/f/submissions/${id}`;
  const withFiles = (files: NonNullable<Submission['meta']['files']>) =>
    submission({
      data: { cv: 'typed over the field' },
      meta: { userAgent: '', referrer: '', files },
    });

  it('puts a file field’s files in its column with the submission’s page, a link that lasts', () => {
    const row = exportRow(
      withFiles([
        { field: 'cv', name: 'ada-cv.pdf', mime: 'application/pdf', size: 10 },
        { field: 'photo', name: 'me.png', mime: 'image/png', size: 9 },
        { field: 'cv[]', name: 'letter\u200B.pdf', mime: 'application/pdf', size: 9 },
      ]),
      ['name', 'cv'],
      { fields: form, pageOf: page },
    );
    expect(row[3]).toBe(
      'ada-cv.pdf; letter.pdf — https://forms.example.com/app/forms/f/submissions/01a20799-ee3a-7946-b5e7-cbed43dd04de',
    );
    // Every file is still named in `files`, a file of another name too.
    expect(row.at(-1)).toBe('ada-cv.pdf; me.png; letter.pdf');
  });

  it('a file stored before files kept their field goes to the form’s one file field; none, an empty cell', () => {
    const legacy = withFiles([{ name: 'old.pdf', mime: 'application/pdf', size: 1 }]);
    expect(exportRow(legacy, ['cv'], { fields: form, pageOf: page })[2]).toMatch(
      /^old\.pdf — https:\/\//,
    );
    const two = [...form, { id: 'cover', type: 'file' } as FieldDefinition];
    expect(exportRow(legacy, ['cv', 'cover'], { fields: two, pageOf: page }).slice(2, 4)).toEqual([
      '',
      '',
    ]);
    expect(exportRow(withFiles([]), ['cv'], { fields: form, pageOf: page })[2]).toBe('');
  });
});

describe('exportQuery', () => {
  it('defaults to all and takes the four filters', () => {
    expect(exportQuery.parse({})).toEqual({ filter: 'all', header: 'ids' });
    for (const filter of ['all', 'unread', 'starred', 'spam']) {
      expect(exportQuery.parse({ filter })).toEqual({ filter, header: 'ids' });
    }
  });

  it('names the columns by ids unless asked for labels', () => {
    expect(exportQuery.parse({ header: 'labels' })).toEqual({ filter: 'all', header: 'labels' });
    expect(exportQuery.safeParse({ header: 'names' }).success).toBe(false);
  });

  it('refuses other filters and unknown parameters', () => {
    expect(exportQuery.safeParse({ filter: 'archived' }).success).toBe(false);
    expect(exportQuery.safeParse({ filter: '' }).success).toBe(false);
    expect(exportQuery.safeParse({ format: 'xlsx' }).success).toBe(false);
  });
});

describe('exportFileName', () => {
  const at = new Date('2026-11-23T23:59:59Z');

  it('is the form name in ASCII letters, digits and hyphens, the filter and the UTC date', () => {
    expect(exportFileName('Contact Café', 'all', at)).toBe('contact-cafe-all-2026-11-23.csv');
    expect(exportFileName('  "Sales" / Q4; x=1  ', 'spam', at)).toBe(
      'sales-q4-x-1-spam-2026-11-23.csv',
    );
  });

  it('falls back to "form" when no ASCII is left, and stays short', () => {
    expect(exportFileName('📮 中文', 'unread', at)).toBe('form-unread-2026-11-23.csv');
    expect(exportFileName('a'.repeat(300), 'all', at)).toBe(`${'a'.repeat(60)}-all-2026-11-23.csv`);
  });
});
