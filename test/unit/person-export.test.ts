import { describe, expect, it } from 'vitest';
import { DocumentTooLarge, type PersonExportBatch, personDocument } from '#domain/person-export.ts';
import type { Submission } from '#domain/submission-model.ts';

function submission(n: number, overrides: Partial<Submission> = {}): Submission {
  return {
    id: `01a20799-ee3a-7946-b5e7-${String(n).padStart(12, '0')}`,
    formId: 'dc46a893-9f16-493e-b3ce-ff4aaa277319',
    data: { email: 'ada@example.com', message: `message ${n}` },
    meta: { userAgent: 'ua', referrer: '', files: [{ name: 'cv.pdf' } as never] },
    read: true,
    starred: false,
    isSpam: false,
    isTest: false,
    spamAt: undefined,
    createdAt: '2026-11-23T08:51:30.790Z',
    ...overrides,
  };
}

async function* batches(...list: (PersonExportBatch | Error)[]): AsyncGenerator<PersonExportBatch> {
  for (const item of list) {
    if (item instanceof Error) throw item;
    yield item;
  }
}

/** The chunks written before the document ended, and how it ended. */
async function written(document: AsyncGenerator<string>) {
  const chunks: string[] = [];
  try {
    for await (const chunk of document) chunks.push(chunk);
    return { chunks, text: chunks.join(''), failure: undefined };
  } catch (failure) {
    return { chunks, text: chunks.join(''), failure };
  }
}

describe('personDocument (docs/privacy.md#export-by-email)', () => {
  it('writes one JSON document, a chunk per batch, with the form name and file names', async () => {
    const { chunks, text, failure } = await written(
      personDocument(
        batches(
          { formName: 'Contact', submissions: [submission(2), submission(1)] },
          { formName: 'Empty', submissions: [] },
          { formName: 'Jobs', submissions: [submission(3)] },
        ),
        1_000_000,
      ),
    );
    expect(failure).toBeUndefined();
    expect(chunks).toHaveLength(4);
    const document = JSON.parse(text);
    expect(document.submissions.map((s: { formName: string }) => s.formName)).toEqual([
      'Contact',
      'Contact',
      'Jobs',
    ]);
    expect(document.submissions[0]).toEqual({
      formId: 'dc46a893-9f16-493e-b3ce-ff4aaa277319',
      formName: 'Contact',
      id: submission(2).id,
      createdAt: '2026-11-23T08:51:30.790Z',
      data: { email: 'ada@example.com', message: 'message 2' },
      replyTo: null,
      subject: null,
      meta: { userAgent: 'ua', referrer: '', files: [{ name: 'cv.pdf', scan: 'not_scanned' }] },
      files: ['cv.pdf'],
      isSpam: false,
      isTest: false,
    });
  });

  it('holds the _replyto and _subject kept beside a submission (docs/privacy.md#export-by-email)', async () => {
    const hinted = submission(4, { data: { message: 'call me' } });
    const { text } = await written(
      personDocument(
        batches({
          formName: 'Contact',
          submissions: [hinted, submission(5)],
          hints: new Map([[hinted.id, { replyTo: 'ada@example.com', subject: 'From Ada' }]]),
        }),
        1_000_000,
      ),
    );
    const [first, second] = JSON.parse(text).submissions;
    expect(first).toMatchObject({ replyTo: 'ada@example.com', subject: 'From Ada' });
    expect(second).toMatchObject({ replyTo: null, subject: null });
  });

  it('a person with nothing is an empty list', async () => {
    const { text } = await written(personDocument(batches(), 100));
    expect(JSON.parse(text)).toEqual({ submissions: [] });
  });

  it('a read failing after the first bytes ends the document without its closing, unparseable', async () => {
    const { chunks, text, failure } = await written(
      personDocument(
        batches({ formName: 'Contact', submissions: [submission(1)] }, new Error('read failed')),
        1_000_000,
      ),
    );
    expect(String(failure)).toContain('read failed');
    expect(chunks[0]).toBe('{"submissions":[');
    expect(text.endsWith(']}')).toBe(false);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('stops before passing its byte bound: what fit went out, the rest is cut, unparseable', async () => {
    const one = JSON.stringify(submission(1)).length;
    const { text, failure } = await written(
      personDocument(
        batches({ formName: 'F', submissions: [1, 2, 3, 4, 5].map((n) => submission(n)) }),
        3 * one,
      ),
    );
    expect(failure).toBeInstanceOf(DocumentTooLarge);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(3 * one);
    expect(text).toContain(submission(1).id);
    expect(text).not.toContain(submission(5).id);
    expect(() => JSON.parse(text)).toThrow();
  });
});
