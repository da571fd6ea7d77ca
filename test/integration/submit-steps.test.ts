import { describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { forceFormAttributes, newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, inOneMinute, submit } from '#test/support/submit.ts';
import { TEST_MIN_FILL_TIME_MS } from './stack-settings.ts';

const PASSING_SECRET = '1x0000000000000000000000000000000AA';
const FAILING_SECRET = '2x0000000000000000000000000000000AA';

async function verifierRequests(): Promise<
  { secret: string; response: string; remoteip: string }[]
> {
  const response = await fetch(`${stack().endpoints.turnstile}/requests`);
  return (await response.json()) as { secret: string; response: string; remoteip: string }[];
}

describe('step 2: block lists drop quietly', () => {
  it('a blocked IP gets 200 { ok: true } and nothing is stored', async () => {
    const visitor = freshVisitor();
    const form = await newForm('free', { blockedIps: [visitor] });
    const response = await submit(form.key, { json: { a: 'b' }, from: visitor });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    const other = await submit(form.key, { json: { a: 'b' }, from: freshVisitor() });
    expect(other.body?.submissionId).toEqual(expect.any(String));
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('a blocked country (CloudFront-Viewer-Country) is dropped', async () => {
    const form = await newForm('free', { blockedCountries: ['FR'] });
    const response = await submit(form.key, {
      json: { a: 'b' },
      headers: { 'cloudfront-viewer-country': 'FR' },
    });
    expect(response.body).toEqual({ ok: true });
    expect(await storedItems(form.id)).toHaveLength(0);
  });

  it('comes before everything after it: a blocked IP posting bad JSON to a closed form still gets 200', async () => {
    const visitor = freshVisitor();
    const form = await newForm('free', {
      blockedIps: [visitor],
      status: 'paused',
      allowedOrigins: ['https://allowed.example'],
    });
    const response = await submit(form.key, {
      body: '{not json',
      contentType: 'application/json',
      headers: { origin: 'https://elsewhere.example' },
      from: visitor,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
  });
});

describe('step 3: allowed websites', () => {
  it('checks Origin first, then Referer; an empty list allows every site', async () => {
    const form = await newForm('free', { allowedOrigins: ['https://shop.example.com/contact'] });
    const allowed = await submit(form.key, {
      json: { a: '1' },
      headers: { origin: 'https://shop.example.com' },
    });
    expect(allowed.status).toBe(200);
    const byReferer = await submit(form.key, {
      json: { a: '2' },
      headers: { referer: 'https://shop.example.com/contact?x=1' },
    });
    expect(byReferer.status).toBe(200);
    const refused = await submit(form.key, {
      json: { a: '3' },
      headers: { origin: 'https://evil.example', referer: 'https://shop.example.com/' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: 'origin_not_allowed' });
    const anonymous = await submit(form.key, { json: { a: '4' } });
    expect(anonymous.status).toBe(403);
    const open = await newForm('free');
    expect((await submit(open.key, { json: { a: '5' } })).status).toBe(200);
  });

  it('comes before parsing: a disallowed origin posting unparseable JSON gets 403, not 415', async () => {
    const form = await newForm('free', { allowedOrigins: ['https://ok.example'] });
    const response = await submit(form.key, {
      body: '{"broken',
      contentType: 'application/json',
      headers: { origin: 'https://nope.example' },
    });
    expect(response.status).toBe(403);
  });
});

describe('step 4: rate limits', () => {
  it('the 31st post a minute from one IP to one form gets 429 with Retry-After; others still pass', async () => {
    const form = await newForm('pro');
    const { statuses, limited } = await inOneMinute(async () => {
      const visitor = freshVisitor();
      const each: number[] = [];
      for (let i = 0; i < 31; i++) {
        each.push((await submit(form.key, { json: { n: String(i) }, from: visitor })).status);
      }
      return {
        statuses: each,
        limited: await submit(form.key, { json: { n: 'late' }, from: visitor }),
      };
    });
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(statuses[30]).toBe(429);
    const someoneElse = await submit(form.key, { json: { n: 'other' }, from: freshVisitor() });
    expect(someoneElse.status).toBe(200);
  });

  it('comes before parsing: a limited visitor sending garbage gets 429', async () => {
    const form = await newForm('free');
    const response = await inOneMinute(async () => {
      const visitor = freshVisitor();
      for (let i = 0; i < 30; i++)
        await submit(form.key, { body: 'x', contentType: 'text/plain', from: visitor });
      return submit(form.key, { body: 'x', contentType: 'text/plain', from: visitor });
    });
    expect(response.status).toBe(429);
  });
});

describe('step 5: the body', () => {
  it('refuses other content types and unparseable or non-object JSON with 415', async () => {
    const form = await newForm('free');
    const cases: [string | undefined, string][] = [
      ['text/plain', 'a=b'],
      ['application/xml', '<a/>'],
      [undefined, 'a=b'],
      ['application/json', '{"a":'],
      ['application/json', '[{"a":"b"}]'],
      ['application/json', '"text"'],
      ['multipart/form-data', '--x\r\n'],
    ];
    for (const [contentType, body] of cases) {
      const response = await submit(form.key, { body, contentType, from: freshVisitor() });
      expect(response.status, `${contentType} ${body}`).toBe(415);
      expect(response.body).toMatchObject({ ok: false, error: 'unsupported_media_type' });
    }
  });

  it('refuses bodies over 200 KB with 413 and takes one just under', async () => {
    const form = await newForm('free');
    const over = await submit(form.key, {
      body: `a=${'x'.repeat(200 * 1024)}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ ok: false, error: 'payload_too_large' });
    const under = await submit(form.key, {
      body: `a=${'x'.repeat(200 * 1024 - 10)}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(under.status).toBe(200);
  });
});

describe('step 6: bots', () => {
  it(`a filled honeypot or a post sooner than the fill-time minimum (${TEST_MIN_FILL_TIME_MS} ms here, 2 s deployed) after render is dropped with 200 { ok: true }`, async () => {
    const form = await newForm('free');
    const honeypot = await submit(form.key, { form: { a: 'b', _gotcha: 'filled' } });
    expect(honeypot.body).toEqual({ ok: true });
    const fast = await submit(form.key, { form: { a: 'b', _t: String(Date.now() - 100) } });
    expect(fast.body).toEqual({ ok: true });
    const human = await submit(form.key, { form: { a: 'c', _t: String(Date.now() - 5000) } });
    expect(human.body?.submissionId).toEqual(expect.any(String));
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('stores a post whose _t is 90 s in the future (a visitor clock that is fast) and still drops one 0.1 s old', async () => {
    const form = await newForm('free');
    const ahead = await submit(form.key, { form: { a: 'ahead', _t: String(Date.now() + 90_000) } });
    expect(ahead.status).toBe(200);
    expect(ahead.body?.submissionId, 'a _t in the future is no signal').toEqual(expect.any(String));
    const fast = await submit(form.key, { form: { a: 'fast', _t: String(Date.now() - 100) } });
    expect(fast.body).toEqual({ ok: true });
    const stored = await storedItems(form.id);
    expect(stored.map((item) => item.data)).toEqual([{ a: 'ahead' }]);
  });

  it('comes before the empty check and the closed check', async () => {
    const form = await newForm('free', { status: 'paused' });
    const response = await submit(form.key, { form: { _gotcha: 'x' } });
    expect(response.body).toEqual({ ok: true });
  });
});

describe('step 7: empty submissions', () => {
  it('no answer with content is 422', async () => {
    const form = await newForm('free');
    for (const body of [{}, { a: '' }, { a: '   ' }, { _subject: 'only special' }]) {
      const response = await submit(form.key, { json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toMatchObject({ ok: false, error: 'empty_submission' });
    }
  });

  it('comes before the closed check', async () => {
    const form = await newForm('free', { status: 'paused' });
    expect((await submit(form.key, { json: {} })).status).toBe(422);
  });
});

describe('step 8: closed forms', () => {
  it('paused, past autoCloseAt, or at maxSubmissions answers 423; the Pro closed message is shown', async () => {
    const paused = await newForm('pro', { status: 'paused', closedMessage: 'See you next year' });
    const response = await submit(paused.key, { json: { a: 'b' } });
    expect(response.status).toBe(423);
    expect(response.body).toEqual({
      ok: false,
      error: 'form_closed',
      message: 'See you next year',
    });

    const expired = await newForm('free');
    await forceFormAttributes(expired.id, {
      autoCloseAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect((await submit(expired.key, { json: { a: 'b' } })).status).toBe(423);

    const full = await newForm('free', { maxSubmissions: 1 });
    expect((await submit(full.key, { json: { a: 'first' } })).status).toBe(200);
    const second = await submit(full.key, { json: { a: 'second' } });
    expect(second.status).toBe(423);
    expect(second.body?.message).toBe('This form is closed and no longer accepts submissions.');
    const form = await api('GET', `/v1/forms/${full.id}`, { key: full.apiKey });
    expect(form.body).toMatchObject({ status: 'paused', closedReason: 'max_submissions' });
  });
});

describe('step 9: captcha', () => {
  it('verifies the token with the saved secret and the client IP; missing or failing → 403', async () => {
    const form = await newForm('free', {
      captchaSiteKey: '1x00000000000000000000AA',
      captchaSecretKey: PASSING_SECRET,
      captchaEnabled: true,
    });
    const visitor = freshVisitor();
    const missing = await submit(form.key, { json: { a: 'b' }, from: visitor });
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ error: 'captcha_failed' });
    const passed = await submit(form.key, {
      json: { a: 'b', 'cf-turnstile-response': 'token-1' },
      from: visitor,
    });
    expect(passed.status).toBe(200);
    const viaCaptchaField = await submit(form.key, { form: { a: 'c', _captcha: 'token-2' } });
    expect(viaCaptchaField.status).toBe(200);
    const seen = (await verifierRequests()).find((r) => r.response === 'token-1');
    expect(seen).toMatchObject({ secret: PASSING_SECRET, remoteip: visitor });
    const stored = await storedItems(form.id);
    expect(stored.map((i) => Object.keys(i.data as object))).toEqual([['a'], ['a']]);

    const failing = await newForm('free', {
      captchaSiteKey: 'site',
      captchaSecretKey: FAILING_SECRET,
      captchaEnabled: true,
    });
    const refused = await submit(failing.key, { json: { a: 'b', _captcha: 'token' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'captcha_failed' });
  });

  it('an unreachable verifier refuses with 403 and says so', async () => {
    const form = await newForm('free', {
      captchaSiteKey: 'site',
      captchaSecretKey: 'unavailable',
      captchaEnabled: true,
    });
    const response = await submit(form.key, { json: { a: 'b', _captcha: 'token' } });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: 'captcha_unavailable' });
    expect(response.body?.message).toMatch(/could not be reached/);
  });

  it('comes after the closed check', async () => {
    const form = await newForm('free', {
      captchaSiteKey: 'site',
      captchaSecretKey: FAILING_SECRET,
      captchaEnabled: true,
      status: 'paused',
    });
    expect((await submit(form.key, { json: { a: 'b' } })).status).toBe(423);
  });
});

describe('step 10: spam', () => {
  it('link spam and duplicates are stored as spam and still answered with a submissionId', async () => {
    const form = await newForm('free');
    const links = await submit(form.key, {
      json: { message: 'buy http://a.example http://b.example http://c.example' },
    });
    expect(links.body?.submissionId).toEqual(expect.any(String));
    const first = await submit(form.key, { json: { email: 'x@example.com', message: 'Hi' } });
    const again = await submit(form.key, { json: { message: 'Hi', email: 'x@example.com' } });
    expect(again.status).toBe(200);
    const { submissions } = await localStore();
    const flag = async (r: typeof first) =>
      (await submissions.getSubmission(form.id, r.body?.submissionId as string))?.isSpam;
    expect(await flag(links)).toBe(true);
    expect(await flag(first)).toBe(false);
    expect(await flag(again)).toBe(true);
    const list = await api('GET', '/v1/forms', { key: form.apiKey });
    expect((list.body.forms as { submissionCount: number }[])[0]?.submissionCount).toBe(1);
  });

  it('a duplicate (the same visitor) in other case, spacing, hidden characters, NUL or an empty extra field is still spam', async () => {
    const form = await newForm('free');
    // One visitor: a duplicate is the same answers from the same visitor.
    const visitor = freshVisitor();
    const first = await submit(form.key, {
      json: { email: 'x@example.com', message: 'Cheap pills, today only' },
      from: visitor,
    });
    const { submissions } = await localStore();
    const isSpam = async (body: Record<string, unknown> | undefined) =>
      (await submissions.getSubmission(form.id, body?.submissionId as string))?.isSpam;
    expect(await isSpam(first.body)).toBe(false);
    const disguises: Record<string, string>[] = [
      { email: 'X@Example.COM', message: 'CHEAP PILLS, TODAY ONLY' },
      { email: 'x@example.com', message: '  Cheap   pills,\n\ttoday only ' },
      { email: 'x@exa\u200Bmple.com', message: 'Cheap pills,\uFEFF today only' },
      { email: 'x@example.com\u0000', message: 'Cheap pi\u0000lls, today only' },
      { message: 'Cheap pills, today only', email: 'x@example.com', phone: '' },
    ];
    for (const json of disguises) {
      const again = await submit(form.key, { json, from: visitor });
      expect(again.status).toBe(200);
      expect(await isSpam(again.body), JSON.stringify(json)).toBe(true);
    }
    // urlencoded with fields reordered is the same post.
    const encoded = await submit(form.key, {
      form: [
        ['message', 'cheap pills, today only'],
        ['email', 'x@example.com'],
      ],
      from: visitor,
    });
    expect(await isSpam(encoded.body)).toBe(true);
    const different = await submit(form.key, {
      json: { email: 'x@example.com', message: 'Cheap pills, tomorrow only' },
      from: visitor,
    });
    expect(await isSpam(different.body)).toBe(false);
  });
});

describe('step 11: the monthly allowance', () => {
  it('402 past the allowance; near_limit from 95 %; spam and test submissions count toward nothing', async () => {
    const form = await newForm('free');
    const { usage } = await localStore();
    const { admin } = await import('#test/support/admin.ts');
    const set = await admin('team', 'allowance', '--team', form.teamId, '--submissions', '20');
    expect(set.code, set.stderr).toBe(0);
    await api('POST', `/v1/forms/${form.id}/test-submissions`, { key: form.apiKey });
    const answers: Record<string, unknown>[] = [];
    for (let i = 1; i <= 18; i++) {
      answers.push(
        (await submit(form.key, { json: { n: String(i) }, from: freshVisitor() })).body ?? {},
      );
    }
    expect(answers.every((a) => a.warning === undefined)).toBe(true);
    const nineteenth = await submit(form.key, { json: { n: '19' } });
    expect(nineteenth.body).toMatchObject({ ok: true, warning: 'near_limit' });
    const twentieth = await submit(form.key, { json: { n: '20' } });
    expect(twentieth.body).toMatchObject({ ok: true, warning: 'near_limit' });
    const over = await submit(form.key, { json: { n: '21' } });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({ ok: false, error: 'submission_limit_reached' });
    // Spam is stored even past the allowance: it costs the team nothing.
    const spam = await submit(form.key, { json: { n: 'http://a.x http://b.x http://c.x' } });
    expect(spam.status).toBe(200);
    expect(await usage.monthlyUsage(form.teamId, new Date().toISOString().slice(0, 7))).toBe(20);
  });
});

describe('step 12: field checks', () => {
  it('answers that fail the fields are stored unread with data._invalid', async () => {
    const form = await newForm('free', {
      fields: [
        { id: 'email', type: 'email', required: true },
        { id: 'age', type: 'number', min: 18 },
        { id: 'name', type: 'text' },
      ],
    });
    const response = await submit(form.key, {
      json: { email: 'not-an-email', age: '12', name: 'A' },
    });
    expect(response.status).toBe(200);
    const { submissions } = await localStore();
    const stored = await submissions.getSubmission(form.id, response.body?.submissionId as string);
    expect(stored?.read).toBe(false);
    expect(JSON.parse(stored?.data._invalid ?? '[]')).toEqual([
      { fieldId: 'email', reason: 'invalid_email' },
      { fieldId: 'age', reason: 'too_small' },
    ]);
    const valid = await submit(form.key, { json: { email: 'a@example.com', age: '30' } });
    const clean = await submissions.getSubmission(form.id, valid.body?.submissionId as string);
    expect(clean?.data).not.toHaveProperty('_invalid');
  });
});
