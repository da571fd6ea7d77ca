import { describe, expect, inject, it, vi } from 'vitest';
import { localGoogleKey } from '#lib/local/google-dev-key.ts';
import { SheetsClient } from '#net/google-sheets.ts';
import { GoogleTokenSource } from '#net/google-token.ts';
import { admin } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { eventually, integrationDeliveriesOf } from '#test/support/delivery.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { TEST_RECEIVER_TIMEOUT_MS } from './stack-settings.ts';

/**
 * Google Sheets end to end (docs/integrations.md#google-sheets) through the
 * local stack: the connect route, the fan-out, the FIFO `sheets` queue and
 * its worker, against the stack's Google emulator (its HTTP controls make
 * spreadsheets, unshare them and inject 429, 500 or a hang). The test reads
 * the sheets with the stack's own development key.
 */

// The stack's queues and stream are shared with the run; a hang costs the test stack's 3 s
// receiver timeout (test/integration/stack-settings.ts).
vi.setConfig({ testTimeout: 120_000 });

const google = () => {
  const info = stack().google;
  if (!info) throw new Error('the test stack runs without its Google emulator');
  return { ...info, origin: new URL(info.pageUrl).origin };
};

async function control(method: string, path: string, body: unknown = {}) {
  const response = await fetch(`${google().origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, path).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

async function newSpreadsheet(sheets = ['Responses'], shared = true): Promise<string> {
  const made = await control('POST', '/emulator/spreadsheets', {
    title: 'Test responses',
    sheets,
    sharedWith: shared ? [google().serviceAccount] : [],
  });
  return made.spreadsheetId as string;
}

const share = (id: string) =>
  control('POST', `/emulator/spreadsheets/${id}/share`, { email: google().serviceAccount });
const unshare = (id: string) =>
  control('DELETE', `/emulator/spreadsheets/${id}/share`, { email: google().serviceAccount });
/** The next append to this spreadsheet gets `fault` (other files' sheets never meet it). */
const inject_ = (spreadsheetId: string, fault: Record<string, unknown>) =>
  control('POST', '/emulator/inject', { method: 'values.append', spreadsheetId, ...fault });

let reader: SheetsClient | undefined;
/** The sheet's cells as the stack's service account reads them. */
async function grid(spreadsheetId: string, sheet = 'Responses'): Promise<string[][]> {
  if (!reader) {
    const key = await localGoogleKey(inject('stateDir'));
    const tokens = new GoogleTokenSource({ key, tokenUrl: `${google().origin}/token` });
    reader = new SheetsClient({ apiUrl: google().origin, tokens });
  }
  // The reader is the service account itself: a test reads only while the sheet is shared.
  const answer = await reader.getValues(spreadsheetId, `'${sheet}'!A1:Z200`);
  if (answer.kind === 'failed') throw new Error(answer.reason);
  return answer.value;
}

const fields = [
  { id: 'name', type: 'text', label: 'Your name' },
  { id: 'message', type: 'textarea', label: 'Message' },
];

async function proForm(): Promise<TestForm> {
  return newForm('pro', { fields });
}

function connect(form: TestForm, body: Record<string, unknown>) {
  return api('PUT', `/v1/forms/${form.id}/integrations/sheets`, { key: form.apiKey, body });
}

async function connected(form: TestForm): Promise<string> {
  const spreadsheetId = await newSpreadsheet();
  const response = await connect(form, { spreadsheetId });
  expect(response.status, response.text).toBe(200);
  return spreadsheetId;
}

async function post(form: TestForm, name = 'Ada') {
  const json = { name, message: `Hi ${crypto.randomUUID()}` };
  const response = await submit(form.key, { json, from: freshVisitor() });
  expect(response.status).toBe(200);
  return response.body?.submissionId as string;
}

async function rowsOf(spreadsheetId: string, count: number) {
  return eventually(
    () => grid(spreadsheetId),
    (cells) => cells.length - 1 >= count,
  );
}

async function deliveryWhen(form: TestForm, submissionId: string, status: string) {
  const list = await eventually(
    () => integrationDeliveriesOf(form, 'sheets'),
    (found) => found.some((d) => d.submissionId === submissionId && d.status === status),
  );
  return list.find((d) => d.submissionId === submissionId)!;
}

async function integrations(form: TestForm) {
  const response = await api('GET', `/v1/forms/${form.id}/integrations`, { key: form.apiKey });
  expect(response.status).toBe(200);
  return response.body as Record<string, unknown> & { sheets: Record<string, unknown> | null };
}

describe('connecting a sheet', () => {
  it('checks the spreadsheet before saving: not shared, unknown, wrong sheet, Free', async () => {
    const form = await proForm();
    const address = google().serviceAccount;
    const unshared = await newSpreadsheet(['Responses'], false);
    const refused = await connect(form, { spreadsheetId: unshared });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('sheet_not_shared');
    expect(refused.body.message).toContain(address);

    const unknown = await connect(form, { spreadsheetId: 'no-such-spreadsheet' });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'spreadsheet_not_found']);

    const spreadsheetId = await newSpreadsheet(['Responses', "Bob's sheet"]);
    const wrongSheet = await connect(form, { spreadsheetId, sheetName: 'Nope' });
    expect([wrongSheet.status, wrongSheet.body.error]).toEqual([400, 'sheet_not_found']);

    const badId = await connect(form, { spreadsheetId: 'a/b' });
    expect(badId.status).toBe(400);
    expect((badId.body.issues as { path: string }[])[0]!.path).toBe('spreadsheetId');
    expect((await integrations(form)).sheets).toBeNull();

    const free = await newForm('free');
    const notPro = await connect(free, { spreadsheetId });
    expect([notPro.status, notPro.body.error]).toEqual([402, 'plan_required']);

    const named = await connect(form, { spreadsheetId, sheetName: "Bob's sheet" });
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ spreadsheetId, sheetName: "Bob's sheet", status: 'active' });
    const first = await connect(form, { spreadsheetId });
    expect(first.body.sheetName).toBe('Responses');
    const all = await integrations(form);
    expect(all.serviceAccountEmail).toBe(address);
    expect(all.sheets).toMatchObject({ spreadsheetId, sheetName: 'Responses', lastError: null });
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.integrations).toEqual(['sheets']);

    const copy = await api('POST', `/v1/forms/${form.id}/duplicate`, {
      key: form.apiKey,
      body: {},
    });
    expect(copy.status, copy.text).toBe(201);
    const copied = await api('GET', `/v1/forms/${copy.body.id}/integrations`, { key: form.apiKey });
    expect(copied.body.sheets).toBeNull();

    const removed = await api('DELETE', `/v1/forms/${form.id}/integrations/sheets`, {
      key: form.apiKey,
    });
    expect(removed.status).toBe(204);
    expect((await integrations(form)).sheets).toBeNull();
  });
});

describe('sending rows', () => {
  it('a post is a row under the right headers; two quick posts keep their order', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    const first = await post(form, 'Ada');
    const second = await post(form, 'Grace');
    const cells = await rowsOf(spreadsheetId, 2);
    expect(cells[0]).toEqual(['id', 'createdAt', 'name', 'message']);
    expect(cells.slice(1).map((row) => [row[0], row[2]])).toEqual([
      [first, 'Ada'],
      [second, 'Grace'],
    ]);
    const delivery = await deliveryWhen(form, first, 'delivered');
    expect(delivery.attempts).toHaveLength(1);
    expect((await integrations(form)).sheets).toMatchObject({ status: 'active' });
    expect((await integrations(form)).sheets?.lastDeliveryAt).not.toBeNull();
  });

  it('a 429 is retried, and the row is appended once', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    await inject_(spreadsheetId, { status: 429, retryAfter: '1' });
    const id = await post(form);
    const delivery = await deliveryWhen(form, id, 'delivered');
    expect(delivery.attempts.map((a) => a.responseStatus)).toEqual([429, 200]);
    const cells = await grid(spreadsheetId);
    expect(cells.slice(1).map((row) => row[0])).toEqual([id]);
  });

  it('an append Google applied but never answered is not appended again', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    await inject_(spreadsheetId, { hang: true });
    const id = await post(form);
    const delivery = await deliveryWhen(form, id, 'delivered');
    expect(delivery.attempts[0]!.error).toBe(
      `timeout: no answer within ${TEST_RECEIVER_TIMEOUT_MS} ms`,
    );
    expect(delivery.attempts.at(-1)!.responseBody).toMatch(/there already/);
    const cells = await grid(spreadsheetId);
    expect(cells.slice(1).map((row) => row[0])).toEqual([id]);
  });

  it('unshared later: failing after one try per submission; shared again, it heals', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    await unshare(spreadsheetId);
    const first = await post(form);
    const failed = await deliveryWhen(form, first, 'failed');
    expect(failed.attempts.map((a) => a.responseStatus)).toEqual([403]);
    const sheets = (await integrations(form)).sheets!;
    expect(sheets.status).toBe('failing');
    expect(sheets.lastError).toMatch(/403/);
    const second = await post(form);
    expect((await deliveryWhen(form, second, 'failed')).attempts).toHaveLength(1);

    await share(spreadsheetId);
    const third = await post(form);
    await deliveryWhen(form, third, 'delivered');
    expect((await integrations(form)).sheets).toMatchObject({ status: 'active', lastError: null });
    expect((await grid(spreadsheetId)).slice(1).map((row) => row[0])).toEqual([third]);
  });

  it('a manual retry of a row that reached the sheet appends nothing', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    // Applied but not answered, then refused: the delivery fails with the row in the sheet.
    await inject_(spreadsheetId, { hang: true });
    const id = await post(form);
    await eventually(
      () => grid(spreadsheetId),
      (cells) => cells.length === 2,
    );
    await unshare(spreadsheetId);
    await deliveryWhen(form, id, 'failed');
    await share(spreadsheetId);

    const retried = await api(
      'POST',
      `/v1/forms/${form.id}/integrations/sheets/deliveries/${id}/retry`,
      { key: form.apiKey },
    );
    expect(retried.status, retried.text).toBe(202);
    const delivery = await deliveryWhen(form, id, 'delivered');
    expect(delivery.attempts.at(-1)!.responseBody).toMatch(/there already/);
    expect((await grid(spreadsheetId)).slice(1).map((row) => row[0])).toEqual([id]);
    const again = await api(
      'POST',
      `/v1/forms/${form.id}/integrations/sheets/deliveries/${id}/retry`,
      { key: form.apiKey },
    );
    expect([again.status, again.body.error]).toEqual([409, 'delivery_not_failed']);
  });

  it('retries spent: the FIFO dead-letter queue; redriven, the row is appended once', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    // The first attempt and one per test retry delay (test/integration/stack-settings.ts).
    for (let n = 0; n < 4; n++) await inject_(spreadsheetId, { status: 500 });
    const id = await post(form);
    const failed = await deliveryWhen(form, id, 'failed');
    expect(failed.attempts.map((a) => a.responseStatus)).toEqual([500, 500, 500, 500]);
    expect((await integrations(form)).sheets?.lastError).toMatch(/no more retries/);

    const moved = await admin(
      'dlq',
      'redrive',
      '--queue',
      'sheets',
      '--match',
      `submissionId=${id}`,
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout).redriven).toBe(1);
    await deliveryWhen(form, id, 'delivered');
    expect((await grid(spreadsheetId)).slice(1).map((row) => row[0])).toEqual([id]);
  });

  it("a visitor's answers named isTest, id, createdAt or ' email ' fill no service column and are all in the row", async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    const json = {
      name: 'Ada',
      message: 'columns of the service',
      isTest: 'true',
      id: 'forged-id',
      createdAt: '1999-01-01T00:00:00Z',
      ' email ': 'spaced@example.com',
    };
    const response = await submit(form.key, { json, from: freshVisitor() });
    expect(response.status, response.text).toBe(200);
    const id = response.body?.submissionId as string;
    const [header, row] = await rowsOf(spreadsheetId, 1);
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(cell('id')).toBe(id);
    expect(cell('createdAt')).not.toBe(json.createdAt);
    // Not a test submission: no isTest column at all.
    expect(header).not.toContain('isTest');
    expect(cell('answer:"isTest"')).toBe('true');
    expect(cell('answer:"id"')).toBe('forged-id');
    expect(cell('answer:"createdAt"')).toBe(json.createdAt);
    expect(cell('answer:" email "')).toBe('spaced@example.com');
    for (const value of Object.values(json)) expect(row).toContain(value);
  });

  it('a test submission writes isTest', async () => {
    const form = await proForm();
    const spreadsheetId = await connected(form);
    const sent = await api('POST', `/v1/forms/${form.id}/test-submissions`, { key: form.apiKey });
    expect(sent.status).toBe(201);
    const cells = await rowsOf(spreadsheetId, 1);
    expect(cells[0]).toContain('isTest');
    expect(cells[1]![cells[0]!.indexOf('isTest')]).toBe('true');
    expect(cells[1]![0]).toBe(sent.body.submissionId);
  });
});
