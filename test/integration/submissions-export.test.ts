import { parse as parseCsv } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Submission } from '#domain/submission-model.ts';
import { api, stack } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { bulk, postAll } from '#test/support/inbox.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';

const TRAILING = [
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
];

interface Exported {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  /** Parsed by csv-parse, BOM removed; header first. */
  records: string[][];
}

async function exportCsv(form: TestForm, query = '', key: string | null = form.apiKey) {
  const response = await fetch(`${stack().baseUrl}/v1/forms/${form.id}/export.csv${query}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(response.status, bytes.toString()).toBeLessThan(500);
  const text = bytes.toString('utf8');
  const records =
    response.status === 200 ? (parseCsv(bytes, { bom: true }) as string[][]) : ([] as string[][]);
  return { status: response.status, headers: response.headers, bytes, text, records } as Exported;
}

/** The row docs/submissions.md#csv-columns describes, built from the stored submission. */
function expectedRow(stored: Submission, answerNames: string[]): string[] {
  return [
    stored.id,
    stored.createdAt,
    ...answerNames.map((name) => stored.data[name] ?? ''),
    String(stored.read),
    String(stored.starred),
    String(stored.isSpam),
    String(stored.isTest),
    stored.meta.ip ?? '',
    stored.meta.country ?? '',
    stored.meta.deviceClass ?? '',
    stored.meta.userAgent,
    stored.meta.referrer,
    (stored.meta.files ?? []).map((file) => file.name).join('; '),
  ];
}

async function storedSubmission(formId: string, id: string): Promise<Submission> {
  const { submissions } = await localStore();
  const stored = await submissions.getSubmission(formId, id);
  expect(stored, `submission ${id}`).toBeDefined();
  return stored!;
}

describe('GET /v1/forms/{id}/export.csv', () => {
  let form: TestForm;
  /** Oldest first. */
  let ids: string[];

  beforeAll(async () => {
    form = await newForm(
      'pro',
      {
        allowUploads: true,
        fields: [
          { id: 'email', type: 'email' },
          { id: 'name', type: 'text' },
          { id: 'message', type: 'textarea' },
        ],
      },
      { name: 'Export test', type: 'custom' },
    );
    ids = await postAll(form, [
      { email: 'ada@example.com', name: 'Ada', message: 'First', company: 'Acme' },
      // A failed field check: `_invalid` is stored, but it is no answer column.
      { email: 'not-an-email', referral: 'friend' },
      // Two names new in one submission come in code-point order.
      { email: 'cy@example.com', name: 'Cy', message: 'Third', zeta: 'z', alpha: 'a' },
    ]);
    const upload = await multipart((f) => {
      f.append('email', 'di@example.com');
      f.append('cv', new Blob([Buffer.from('one')], { type: 'text/plain' }), 'one.txt');
      f.append('notes', new Blob([Buffer.from('two')], { type: 'text/plain' }), 'two.txt');
    });
    const posted = await submit(form.key, { ...upload, from: freshVisitor() });
    expect(posted.status, posted.text).toBe(200);
    ids.push(posted.body?.submissionId as string);
  });

  it('writes the header of docs/submissions.md#csv-columns and one row per submission, newest first', async () => {
    const exported = await exportCsv(form);
    expect(exported.status).toBe(200);
    // Extra names by first appearance ever, oldest first (the form's column catalogue).
    const answerNames = ['email', 'name', 'message', 'company', 'referral', 'alpha', 'zeta'];
    expect(exported.records[0]).toEqual(['id', 'createdAt', ...answerNames, ...TRAILING]);
    const newestFirst = [...ids].reverse();
    expect(exported.records.slice(1).map((row) => row[0])).toEqual(newestFirst);
    for (const [i, id] of newestFirst.entries()) {
      expect(exported.records[i + 1]).toEqual(
        expectedRow(await storedSubmission(form.id, id), answerNames),
      );
    }
    expect((await storedSubmission(form.id, ids[1]!)).data._invalid).toBeDefined();
    expect(exported.records[1]!.at(-1), 'files joined by "; "').toBe('one.txt; two.txt');
  });

  it('answers UTF-8 with a BOM, CRLF line ends and the download headers, streamed', async () => {
    const exported = await exportCsv(form);
    expect([...exported.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = exported.text.slice(1).split('\r\n');
    expect(lines.at(-1), 'the last record ends in CRLF too').toBe('');
    expect(lines.slice(0, -1).every((line) => !line.includes('\n'))).toBe(true);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="export-test-all-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(exported.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(exported.headers.get('cache-control')).toBe('no-store');
    expect(exported.headers.get('transfer-encoding')).toBe('chunked');
    expect(exported.headers.get('content-length')).toBeNull();
    const starred = await exportCsv(form, '?filter=starred');
    expect(starred.headers.get('content-disposition')).toContain('export-test-starred-');
  });

  it('exports each filter: all but spam by default, unread, starred, spam', async () => {
    const inbox = await newForm('pro', {}, { name: 'Filters', type: 'contact' });
    const posted = await postAll(inbox, [
      { name: 'Ada', message: 'one' },
      { name: 'http://spam.example', message: 'link in a name: spam' },
      { name: 'Bob', message: 'three' },
      { name: 'Cy', message: 'four' },
    ]);
    const [ada, spam, bob, cy] = posted as [string, string, string, string];
    expect((await bulk(inbox, 'PATCH', { target: { ids: [bob] }, read: true })).status).toBe(200);
    expect((await bulk(inbox, 'PATCH', { target: { ids: [ada] }, starred: true })).status).toBe(
      200,
    );
    const idsOf = async (query: string) =>
      (await exportCsv(inbox, query)).records.slice(1).map((row) => row[0]);
    expect(await idsOf('')).toEqual([cy, bob, ada]);
    expect(await idsOf('?filter=all')).toEqual([cy, bob, ada]);
    expect(await idsOf('?filter=unread')).toEqual([cy, ada]);
    expect(await idsOf('?filter=starred')).toEqual([ada]);
    expect(await idsOf('?filter=spam')).toEqual([spam]);
    const spamRow = (await exportCsv(inbox, '?filter=spam')).records[1]!;
    expect(spamRow.at(-8), 'isSpam').toBe('true');
  });

  it('neutralizes cells a spreadsheet would run as formulas, header cells included', async () => {
    const target = await newForm('pro', {}, { name: 'Formulas', type: 'custom' });
    const [id] = await postAll(target, [
      {
        message: '=HYPERLINK("http://x","y")',
        plus: '+1',
        minus: '-2',
        at: '@SUM(A1)',
        '=cmd': 'safe',
        plain: 'a=b',
      },
    ]);
    const exported = await exportCsv(target);
    expect(exported.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    const [header, row] = exported.records as [string[], string[]];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(row[0]).toBe(id);
    expect(cell('message')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(cell('plus')).toBe("'+1");
    expect(cell('minus')).toBe("'-2");
    expect(cell('at')).toBe("'@SUM(A1)");
    expect(cell('plain')).toBe('a=b');
    expect(header).toContain("'=cmd");
    expect(header).not.toContain('=cmd');
  });

  it('round-trips commas, quotes, line breaks and any Unicode through a CSV parser', async () => {
    const target = await newForm('pro', {}, { name: 'Quoting', type: 'custom' });
    const tricky = 'Hello, "quoted" world\r\nline two\nline three\rline four';
    const [id] = await postAll(target, [{ message: tricky, other: 'ünïcödé 😀 – 中文' }]);
    const stored = await storedSubmission(target.id, id!);
    const exported = await exportCsv(target);
    expect(exported.records).toHaveLength(2);
    const [header, row] = exported.records as [string[], string[]];
    expect(row[header.indexOf('message')]).toBe(stored.data.message);
    expect(stored.data.message).toContain('\n');
    expect(row[header.indexOf('other')]).toBe('ünïcödé 😀 – 中文');
  });

  it('answers 404 for a form of another team, like a form that does not exist', async () => {
    const other = await newForm('pro');
    const response = await api('GET', `/v1/forms/${form.id}/export.csv`, { key: other.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const unknown = await api('GET', `/v1/forms/${crypto.randomUUID()}/export.csv`, {
      key: form.apiKey,
    });
    expect(unknown.status).toBe(404);
    expect((await api('GET', '/v1/forms/not-a-uuid/export.csv', { key: form.apiKey })).status).toBe(
      404,
    );
  });

  it('answers 400 invalid_request with issues for a bad filter or an unknown parameter', async () => {
    const response = await api('GET', `/v1/forms/${form.id}/export.csv?filter=archived`, {
      key: form.apiKey,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toMatchObject({
      ok: false,
      error: 'invalid_request',
      issues: [{ path: 'filter', code: 'invalid_value' }],
    });
    const unknown = await api('GET', `/v1/forms/${form.id}/export.csv?format=xlsx`, {
      key: form.apiKey,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([expect.objectContaining({ path: 'format' })]);
  });

  it('answers 401 without an API key', async () => {
    const response = await api('GET', `/v1/forms/${form.id}/export.csv`, { key: null });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ ok: false, error: 'unauthorized' });
  });
});
