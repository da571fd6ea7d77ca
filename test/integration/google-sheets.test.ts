import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SheetSubmission } from '#domain/sheet-rows.ts';
import { classifyAttempt } from '#domain/webhook-delivery.ts';
import { type GoogleHandle, startGoogle } from '#lib/local/emulators/google.ts';
import {
  DEV_SERVICE_ACCOUNT,
  type DevGoogleKey,
  localGoogleKey,
} from '#lib/local/google-dev-key.ts';
import { LOCAL_SPREADSHEET_ID } from '#lib/local/stack.ts';
import { SheetsClient } from '#net/google-sheets.ts';
import { GoogleTokenSource, TOKEN_REFRESH_MARGIN_SECONDS } from '#net/google-token.ts';
import { appendSubmissionRow, type SheetAppendOutcome } from '#net/sheet-append.ts';
import { checkSheet } from '#net/sheet-connect.ts';

/**
 * The Google side of the Sheets integration (docs/integrations.md#google-sheets)
 * against the local Google emulator, started in this process: the real
 * token exchange (JWT signature, audience, scope and expiry checked by the
 * emulator), the four Sheets methods over HTTP, faults injected at the
 * emulator.
 */

const SHEET = "Form 'responses' 1";
let google: GoogleHandle;
let key: DevGoogleKey;
let stateDir: string;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'google-sheets-test-'));
  key = await localGoogleKey(stateDir);
  google = await startGoogle({
    port: 0,
    accounts: [{ clientEmail: key.clientEmail, publicKey: key.privateKey }],
  });
});

afterAll(async () => {
  await google?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

function client(timeoutMs?: number): { client: SheetsClient; tokens: GoogleTokenSource } {
  const tokens = new GoogleTokenSource({ key, tokenUrl: google.tokenUrl });
  return { client: new SheetsClient({ apiUrl: google.sheetsApiUrl, tokens, timeoutMs }), tokens };
}

function spreadsheet(): string {
  return google.createSpreadsheet({
    title: 'Contact responses',
    sheets: ['Other', SHEET],
    sharedWith: [key.clientEmail],
  });
}

let counter = 0;
function submission(data: Record<string, string>, isTest = false): SheetSubmission {
  counter += 1;
  return {
    id: `0192f3a4-5b6c-7d8e-9f01-${String(counter).padStart(12, '0')}`,
    createdAt: `2026-11-26T09:00:${String(counter % 60).padStart(2, '0')}.000Z`,
    isTest,
    data,
    meta: {},
  };
}

const append = (
  sheets: SheetsClient,
  spreadsheetId: string,
  sub: SheetSubmission,
  mayBeThere = false,
  fieldIds = ['email', 'message'],
): Promise<SheetAppendOutcome> =>
  appendSubmissionRow(sheets, {
    spreadsheetId,
    sheetName: SHEET,
    submission: sub,
    fieldIds,
    mayBeThere,
  });

describe('appending a submission to a sheet', () => {
  it('writes the header then the row under it, RAW, in the named sheet only', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const sub = submission({ message: 'Hello', email: 'zoe@example.com', extra: 'x' });
    const outcome = await append(sheets, id, sub);
    expect(outcome).toEqual({
      kind: 'appended',
      row: 2,
      addedColumns: ['id', 'createdAt', 'email', 'message', 'extra'],
    });
    expect(google.grid(id, SHEET)).toEqual([
      ['id', 'createdAt', 'email', 'message', 'extra'],
      [sub.id, sub.createdAt, 'zoe@example.com', 'Hello', 'x'],
    ]);
    expect(google.grid(id, 'Other')).toEqual([]);
    const writes = google.stats().writes.filter((write) => write.spreadsheetId === id);
    expect(writes.map((write) => write.valueInputOption)).toEqual(['RAW', 'RAW']);
  });

  it('adds a new answer name as a column at the right, and isTest when a test first comes', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const first = submission({ email: 'a@example.com', message: 'one' });
    const second = submission({ email: 'b@example.com', message: 'two', company: 'Acme' });
    const test = submission({ email: 'c@example.com', message: 'three' }, true);
    await append(sheets, id, first);
    expect(await append(sheets, id, second)).toMatchObject({
      kind: 'appended',
      addedColumns: ['company'],
    });
    expect(await append(sheets, id, test)).toMatchObject({
      kind: 'appended',
      addedColumns: ['isTest'],
    });
    expect(google.grid(id, SHEET)).toEqual([
      ['id', 'createdAt', 'email', 'message', 'company', 'isTest'],
      [first.id, first.createdAt, 'a@example.com', 'one'],
      [second.id, second.createdAt, 'b@example.com', 'two', 'Acme'],
      [test.id, test.createdAt, 'c@example.com', 'three', '', 'true'],
    ]);
  });

  it('fills a column the owner moved by hand under its name', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const first = submission({ email: 'a@example.com', message: 'one' });
    await append(sheets, id, first);
    // The owner drags `message` to the front and adds a notes column of their own.
    google.setGrid(id, SHEET, [
      ['message', 'Notes', 'id', 'createdAt', 'email'],
      ['one', 'called back', first.id, first.createdAt, 'a@example.com'],
    ]);
    const second = submission({ email: 'b@example.com', message: 'two' });
    expect(await append(sheets, id, second)).toMatchObject({
      kind: 'appended',
      row: 3,
      addedColumns: [],
    });
    expect(google.grid(id, SHEET)[2]).toEqual([
      'two',
      '',
      second.id,
      second.createdAt,
      'b@example.com',
    ]);
  });

  it('keeps a formula-looking answer as text', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const answers = {
      email: '=HYPERLINK("https://evil.example","click")',
      message: '+1+1',
      at: '@SUM(A1:A2)',
      minus: '-2+3',
    };
    await append(sheets, id, submission(answers));
    const [header, row] = google.grid(id, SHEET) as [string[], string[]];
    for (const [name, value] of Object.entries(answers)) {
      expect(row[header.indexOf(name)]).toBe(value);
    }
    expect(google.stats().writes.every((write) => write.valueInputOption === 'RAW')).toBe(true);
  });

  it('writes a form wider than 26 columns past column Z', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const fieldIds = Array.from({ length: 30 }, (_, i) => `q${i + 1}`);
    const sub = submission({ q30: 'last' });
    await append(sheets, id, sub, false, fieldIds);
    const [header, row] = google.grid(id, SHEET) as [string[], string[]];
    expect(header).toHaveLength(32);
    expect(header[31]).toBe('q30');
    expect(row[31]).toBe('last');
  });
});

describe('failures, retries and duplicates', () => {
  it('a 429 is retried (its Retry-After kept), and the retry appends once', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const sub = submission({ email: 'a@example.com', message: 'busy' });
    google.inject({ method: 'values.append', status: 429, retryAfter: '7' });
    const first = await append(sheets, id, sub);
    expect(first).toMatchObject({
      kind: 'failed',
      step: 'append',
      attempt: { kind: 'response', status: 429, retryAfter: '7' },
    });
    if (first.kind !== 'failed') throw new Error('unreachable');
    expect(classifyAttempt(first.attempt)).toBe('retry');
    expect(await append(sheets, id, sub, true)).toMatchObject({ kind: 'appended', row: 2 });
    expect(google.grid(id, SHEET).filter((row) => row[0] === sub.id)).toHaveLength(1);
  });

  it("a fault scoped to a spreadsheet waits for that spreadsheet's request, whatever comes first", async () => {
    const mine = spreadsheet();
    const theirs = spreadsheet();
    const { client: sheets } = client();
    google.inject({ method: 'values.append', spreadsheetId: theirs, status: 500 });
    expect(await append(sheets, mine, submission({ email: 'a@example.com' }))).toMatchObject({
      kind: 'appended',
    });
    expect(await append(sheets, theirs, submission({ email: 'b@example.com' }))).toMatchObject({
      kind: 'failed',
      attempt: { status: 500 },
    });
  });

  it('a 500 is retried as well', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    google.inject({ method: 'values.get', status: 500 });
    const outcome = await append(sheets, id, submission({ email: 'a@example.com' }));
    expect(outcome).toMatchObject({ kind: 'failed', step: 'header', attempt: { status: 500 } });
    if (outcome.kind !== 'failed') throw new Error('unreachable');
    expect(classifyAttempt(outcome.attempt)).toBe('retry');
  });

  it('an append Google applied but did not answer (timeout) is not appended again by the retry', async () => {
    const id = spreadsheet();
    const { client: sheets } = client(400);
    const before = submission({ email: 'a@example.com', message: 'earlier' });
    await append(sheets, id, before);
    const sub = submission({ email: 'b@example.com', message: 'slow' });
    google.inject({ method: 'values.append', hang: true });
    const first = await append(sheets, id, sub);
    expect(first).toMatchObject({
      kind: 'failed',
      step: 'append',
      attempt: { kind: 'error', error: 'timeout' },
    });
    if (first.kind !== 'failed') throw new Error('unreachable');
    expect(classifyAttempt(first.attempt)).toBe('retry');
    // Google applied it: the row is there although the answer never came.
    expect(google.grid(id, SHEET).filter((row) => row.includes(sub.id))).toHaveLength(1);

    expect(await append(sheets, id, sub, true)).toEqual({
      kind: 'already_there',
      row: 3,
      addedColumns: [],
    });
    // A redelivery or a manual retry later, after other rows, finds it as well.
    await append(sheets, id, submission({ email: 'c@example.com' }));
    expect(await append(sheets, id, sub, true)).toMatchObject({ kind: 'already_there', row: 3 });
    expect(google.grid(id, SHEET).filter((row) => row.includes(sub.id))).toHaveLength(1);
  });

  it('finds the id column where the owner moved it when checking for a repeat', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const sub = submission({ email: 'a@example.com', message: 'one' });
    await append(sheets, id, sub);
    const [header, row] = google.grid(id, SHEET) as [string[], string[]];
    google.setGrid(id, SHEET, [header.toReversed(), row.toReversed()]);
    expect(await append(sheets, id, sub, true)).toMatchObject({ kind: 'already_there', row: 2 });
  });

  it('a sheet not shared with the service account fails at once, naming nothing secret', async () => {
    const id = spreadsheet();
    const { client: sheets, tokens } = client();
    await append(sheets, id, submission({ email: 'a@example.com' }));
    google.unshare(id, key.clientEmail);
    const outcome = await append(sheets, id, submission({ email: 'b@example.com' }));
    expect(outcome).toMatchObject({
      kind: 'failed',
      step: 'header',
      attempt: { kind: 'response', status: 403 },
      reason: 'HTTP 403: The caller does not have permission',
    });
    if (outcome.kind !== 'failed') throw new Error('unreachable');
    expect(classifyAttempt(outcome.attempt)).toBe('fail');
    const token = await tokens.token();
    if (token.kind !== 'token') throw new Error('no token');
    const said = JSON.stringify(outcome);
    expect(said).not.toContain(token.accessToken);
    expect(said).not.toContain('PRIVATE KEY');
    expect(said).not.toContain('ya29');
    // Shared again, the next submission goes through.
    google.share(id, key.clientEmail);
    expect(await append(sheets, id, submission({ email: 'c@example.com' }))).toMatchObject({
      kind: 'appended',
    });
  });

  it('an unknown spreadsheet is a 404 and an unknown sheet name a 400, both failing at once', async () => {
    const { client: sheets } = client();
    const missing = await append(sheets, 'no-such-spreadsheet', submission({ email: 'a' }));
    expect(missing).toMatchObject({ kind: 'failed', attempt: { status: 404 } });
    const id = spreadsheet();
    const wrongSheet = await appendSubmissionRow(sheets, {
      spreadsheetId: id,
      sheetName: 'Nope',
      submission: submission({ email: 'a' }),
      fieldIds: [],
      mayBeThere: false,
    });
    expect(wrongSheet).toMatchObject({ kind: 'failed', attempt: { status: 400 } });
    for (const outcome of [missing, wrongSheet]) {
      if (outcome.kind !== 'failed') throw new Error('unreachable');
      expect(classifyAttempt(outcome.attempt)).toBe('fail');
    }
  });
});

describe('checking a sheet before it is connected', () => {
  it('takes the first sheet by default, or the one named (quotes and spaces included)', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    expect(await checkSheet(sheets, id)).toEqual({
      kind: 'ok',
      spreadsheetTitle: 'Contact responses',
      sheetName: 'Other',
    });
    expect(await checkSheet(sheets, id, SHEET)).toMatchObject({ kind: 'ok', sheetName: SHEET });
    expect(await checkSheet(sheets, id, 'Missing')).toEqual({
      kind: 'sheet_not_found',
      sheetNames: ['Other', SHEET],
    });
  });

  it('says which address to share with when Google answers 403, and 404 apart', async () => {
    const { client: sheets } = client();
    const unshared = google.createSpreadsheet({ sheets: ['Sheet1'] });
    expect(await checkSheet(sheets, unshared)).toEqual({
      kind: 'not_shared',
      serviceAccountEmail: key.clientEmail,
    });
    expect(await checkSheet(sheets, 'no-such-spreadsheet')).toEqual({
      kind: 'spreadsheet_not_found',
    });
    google.inject({ method: 'get', status: 503 });
    expect(await checkSheet(sheets, unshared)).toMatchObject({
      kind: 'unavailable',
      attempt: { status: 503 },
    });
  });
});

describe('tokens', () => {
  it('one token serves many rows', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    const before = google.stats().tokenRequests;
    for (let i = 0; i < 5; i += 1) {
      expect(await append(sheets, id, submission({ email: `${i}@example.com` }))).toMatchObject({
        kind: 'appended',
      });
    }
    expect(google.stats().tokenRequests - before).toBe(1);
    expect(google.grid(id, SHEET)).toHaveLength(6);
  });

  it('is renewed five minutes before it expires, not sooner', async () => {
    // The source's clock starts 3,500 s back, so its first token (an hour's) runs out in 100 s.
    const base = Date.now() - 3_500_000;
    let offsetSeconds = 0;
    const tokens = new GoogleTokenSource({
      key,
      tokenUrl: google.tokenUrl,
      now: () => base + offsetSeconds * 1000,
    });
    const before = google.stats().tokenRequests;
    const first = await tokens.token();
    offsetSeconds = 3599 - TOKEN_REFRESH_MARGIN_SECONDS - 1;
    expect(await tokens.token()).toEqual(first);
    expect(google.stats().tokenRequests - before).toBe(1);
    offsetSeconds = 3599 - TOKEN_REFRESH_MARGIN_SECONDS;
    const renewed = await tokens.token();
    expect(renewed.kind).toBe('token');
    expect(renewed).not.toEqual(first);
    expect(google.stats().tokenRequests - before).toBe(2);
  });

  it('a 401 drops the token and tries once more with a new one', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    await append(sheets, id, submission({ email: 'a@example.com' }));
    const before = google.stats().tokenRequests;
    google.revokeTokens();
    expect(await append(sheets, id, submission({ email: 'b@example.com' }))).toMatchObject({
      kind: 'appended',
      row: 3,
    });
    expect(google.stats().tokenRequests - before).toBe(1);

    // Google keeps refusing: one new token, then the 401 is the answer (not a loop).
    google.inject({ method: 'values.get', status: 401 });
    google.inject({ method: 'values.get', status: 401 });
    const refused = await append(sheets, id, submission({ email: 'c@example.com' }));
    expect(refused).toMatchObject({ kind: 'failed', attempt: { status: 401 } });
    expect(google.stats().tokenRequests - before).toBe(2);
  });

  it('the emulator refuses an assertion signed by another key, or for another audience', async () => {
    const other = await localGoogleKey(await mkdtemp(join(tmpdir(), 'google-other-')));
    const forged = new GoogleTokenSource({
      key: { clientEmail: key.clientEmail, privateKey: other.privateKey },
      tokenUrl: google.tokenUrl,
    });
    expect(await forged.token()).toMatchObject({
      kind: 'failed',
      attempt: { kind: 'response', status: 400 },
      reason: 'token: HTTP 400: Invalid JWT Signature.',
    });
    const elsewhere = new GoogleTokenSource({ key, tokenUrl: `${google.tokenUrl}?for=another` });
    expect(await elsewhere.token()).toMatchObject({
      kind: 'failed',
      reason: 'token: HTTP 400: Invalid JWT: aud is not the token URL.',
    });
  });

  it('a token endpoint that is down is retried like a 5xx', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    google.inject({ method: 'token', status: 503, retryAfter: '3' });
    const outcome = await append(sheets, id, submission({ email: 'a@example.com' }));
    expect(outcome).toMatchObject({
      kind: 'failed',
      attempt: { kind: 'response', status: 503, retryAfter: '3' },
    });
    if (outcome.kind !== 'failed') throw new Error('unreachable');
    expect(classifyAttempt(outcome.attempt)).toBe('retry');
    expect(outcome.reason).toMatch(/^token: HTTP 503/);
  });
});

describe('the emulator page', () => {
  it('lists each spreadsheet’s grid, escaped', async () => {
    const id = spreadsheet();
    const { client: sheets } = client();
    await append(sheets, id, submission({ email: '<script>alert(1)</script>', message: 'a & b' }));
    const page = await (await fetch(google.pageUrl)).text();
    expect(page).toContain(id);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('a &amp; b');
    expect(page).not.toContain('<script>');
  });
});

describe('npm run dev', () => {
  it('starts the emulator with a development key and a sample spreadsheet shared with it', async () => {
    const info = inject('localStack');
    expect(info.google).toEqual({
      pageUrl: `${info.endpoints.google}/`,
      serviceAccount: DEV_SERVICE_ACCOUNT,
      spreadsheetId: LOCAL_SPREADSHEET_ID,
    });
    // The handlers' key: the one kept in the stack's state directory.
    const devKey = await localGoogleKey(inject('stateDir'));
    const tokens = new GoogleTokenSource({
      key: devKey,
      tokenUrl: `${info.endpoints.google}/token`,
    });
    const sheets = new SheetsClient({ apiUrl: info.endpoints.google, tokens });
    expect(await sheets.getSpreadsheet(LOCAL_SPREADSHEET_ID)).toEqual({
      kind: 'ok',
      value: {
        spreadsheetId: LOCAL_SPREADSHEET_ID,
        title: 'Local responses',
        sheets: [{ sheetId: 1, title: 'Sheet1', index: 0 }],
      },
    });
  });
});

describe('the emulator’s controls over HTTP', () => {
  const control = (path: string, method: string, body: unknown) =>
    fetch(`${google.endpoint}/emulator/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('create and unshare a spreadsheet, and queue a fault, refusing one it cannot read', async () => {
    const created = await control('spreadsheets', 'POST', {
      title: 'By hand',
      sheets: [SHEET],
      sharedWith: [key.clientEmail],
    });
    expect(created.status).toBe(201);
    const { spreadsheetId } = (await created.json()) as { spreadsheetId: string };
    const { client: sheets } = client();
    expect(await append(sheets, spreadsheetId, submission({ email: 'a' }))).toMatchObject({
      kind: 'appended',
    });

    expect((await control('inject', 'POST', { status: 'soon' })).status).toBe(400);
    expect((await control('inject', 'POST', { method: 'values.delete', hang: true })).status).toBe(
      400,
    );
    expect((await control('inject', 'POST', { status: 503, retryAfter: 'x\r\ny' })).status).toBe(
      400,
    );
    expect((await control('inject', 'POST', { method: 'values.get', status: 503 })).status).toBe(
      200,
    );
    expect(await append(sheets, spreadsheetId, submission({ email: 'b' }))).toMatchObject({
      kind: 'failed',
      attempt: { status: 503 },
    });

    const unshared = await control(`spreadsheets/${spreadsheetId}/share`, 'DELETE', {
      email: key.clientEmail,
    });
    expect(await unshared.json()).toEqual({ sharedWith: [] });
    expect(await append(sheets, spreadsheetId, submission({ email: 'c' }))).toMatchObject({
      kind: 'failed',
      attempt: { status: 403 },
    });
  });
});
