import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function readBack(formId: string, submissionId: string) {
  const { submissions } = await localStore();
  return submissions.getSubmission(formId, submissionId);
}

describe('POST /s/{key}: accepted posts', () => {
  it('stores a JSON post with its visitor meta, and answers with CORS and a request id', async () => {
    const form = await newForm('free');
    const from = freshVisitor();
    const response = await submit(form.key, {
      json: { name: 'Ada', email: 'ada@example.com', count: 3, agree: true, none: null },
      headers: {
        'user-agent': CHROME_WINDOWS,
        referer: 'https://www.example.com/contact',
        'cloudfront-viewer-country': 'de',
      },
      from,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, submissionId: expect.stringMatching(UUID) });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await readBack(form.id, response.body?.submissionId as string);
    expect(stored).toEqual({
      id: response.body?.submissionId,
      formId: form.id,
      data: { name: 'Ada', email: 'ada@example.com', count: '3', agree: 'true', none: '' },
      meta: {
        ip: from,
        userAgent: CHROME_WINDOWS,
        referrer: 'https://www.example.com/contact',
        country: 'DE',
        deviceClass: 'desktop',
        // Posted without `_views`: a page that counts no views (docs/analytics.md#views).
        noView: true,
      },
      read: false,
      starred: false,
      isSpam: false,
      isTest: false,
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  it('urlencoded: repeated names are joined, [] is dropped, special fields are not stored', async () => {
    const form = await newForm('free');
    const response = await submit(form.key, {
      form: [
        ['topics[]', 'billing'],
        ['topics[]', 'support'],
        ['message', 'Hello'],
        ['_gotcha', ''],
        ['_subject', 'Custom subject'],
        ['_replyto', 'ada@example.com'],
        ['_anything', 'x'],
        ['cf-turnstile-response', 'token'],
      ],
      headers: { 'user-agent': IPHONE },
    });
    expect(response.status).toBe(200);
    const id = response.body?.submissionId as string;
    const stored = await readBack(form.id, id);
    expect(stored?.data).toEqual({ topics: 'billing,support', message: 'Hello' });
    expect(stored?.meta.deviceClass).toBe('mobile');
    expect(stored?.meta.referrer).toBe('');
    const [item] = (await storedItems(form.id)).filter((i) => i.id === id);
    // Kept beside the submission for the notification email, never as an answer.
    expect(item?.emailHints).toEqual({ subject: 'Custom subject', replyTo: 'ada@example.com' });
  });

  it('multipart text fields are stored like urlencoded ones', async () => {
    const form = await newForm('free');
    const body = new FormData();
    body.append('name', 'Grace');
    body.append('choice', 'a');
    body.append('choice', 'b');
    const encoded = new Response(body);
    const response = await submit(form.key, {
      body: Buffer.from(await encoded.arrayBuffer()),
      contentType: encoded.headers.get('content-type')!,
    });
    expect(response.status).toBe(200);
    const stored = await readBack(form.id, response.body?.submissionId as string);
    expect(stored?.data).toEqual({ name: 'Grace', choice: 'a,b' });
  });

  it('field rules: 50 names kept, values cut at 10,000, JSON arrays joined, nested objects as JSON', async () => {
    const form = await newForm('free');
    const fields: Record<string, unknown> = {};
    for (let i = 1; i <= 51; i++) fields[`f${String(i).padStart(2, '0')}`] = `v${i}`;
    fields.f01 = 'x'.repeat(10_001);
    fields.f02 = ['a', 1, true];
    fields.f03 = { nested: { deep: 1 } };
    const response = await submit(form.key, { json: fields });
    expect(response.status).toBe(200);
    const stored = await readBack(form.id, response.body?.submissionId as string);
    const names = Object.keys(stored?.data ?? {});
    expect(names).toHaveLength(50);
    expect(names).not.toContain('f51');
    expect(stored?.data.f01).toHaveLength(10_000);
    expect(stored?.data.f02).toBe('a,1,true');
    expect(stored?.data.f03).toBe('{"nested":{"deep":1}}');
  });

  it('keys are case-insensitive; a malformed or unknown key is 404 in the envelope', async () => {
    const form = await newForm('free');
    const upper = await submit(form.key.toUpperCase(), { json: { a: '1' } });
    expect(upper.status).toBe(200);
    for (const key of ['no-such-form', '-starts-with-hyphen', 'a'.repeat(65), 'bad.key']) {
      const response = await submit(key, { json: { a: '1' } });
      expect(response.status, key).toBe(404);
      expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
      expect(response.body?.message).toEqual(expect.any(String));
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['x-request-id']).toBeTruthy();
    }
  });

  it('moves submissionCount for stored posts and leaves out the IP when the form says so', async () => {
    const form = await newForm('free', { dontStoreIp: true });
    const response = await submit(form.key, { json: { a: 'one' } });
    const stored = await readBack(form.id, response.body?.submissionId as string);
    expect(stored?.meta).not.toHaveProperty('ip');
    const list = await api('GET', '/v1/forms', { key: form.apiKey });
    expect((list.body.forms as { submissionCount: number }[])[0]?.submissionCount).toBe(1);
  });
});

describe('/s/{key}: other methods', () => {
  it('OPTIONS answers 204 with the CORS headers', async () => {
    const form = await newForm('free');
    const response = await submit(form.key, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://www.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(response.headers['access-control-allow-headers']).toBe('content-type');
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('other methods answer 405 method_not_allowed; a browser gets a short page', async () => {
    const form = await newForm('free');
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await submit(form.key, { method });
      expect(response.status, method).toBe(405);
      expect(response.body).toMatchObject({ ok: false, error: 'method_not_allowed' });
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers.allow).toBe('POST, OPTIONS');
    }
    const page = await submit(form.key, {
      method: 'GET',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(page.status).toBe(405);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<html');
    expect(page.text).toMatch(/POST/);
    expect(page.headers['x-request-id']).toBeTruthy();
  });
});
