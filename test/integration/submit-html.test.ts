import { describe, expect, it } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { submit } from '#test/support/submit.ts';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('POST /s/{key} from a browser (Accept: text/html)', () => {
  it('shows the default thank-you page, escaped design copy, with CORS and a request id', async () => {
    const form = await newForm('free', {
      design: {
        theme: 'dark',
        accent: '#ff0066',
        successMessage: '<script>alert(1)</script> Thanks!',
      },
    });
    const response = await submit(form.key, { form: { a: 'b' }, headers: BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(response.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Thanks!');
    expect(response.text).not.toContain('<script>');
    expect(response.text).toContain('#ff0066');
  });

  it('shows the Pro completion title and message in message mode', async () => {
    const form = await newForm('pro', {
      completionMode: 'message',
      completionTitle: 'You are on the list',
      completionMessage: 'We write when doors open & not before.',
    });
    const response = await submit(form.key, { form: { email: 'a@example.com' }, headers: BROWSER });
    expect(response.text).toContain('You are on the list');
    expect(response.text).toContain('We write when doors open &amp; not before.');
  });

  it('redirects a Pro form with redirectUrl with 303 and Location', async () => {
    const form = await newForm('pro', {
      completionMode: 'redirect',
      redirectUrl: 'https://www.example.com/thanks',
    });
    const response = await submit(form.key, { form: { a: 'b' }, headers: BROWSER });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('https://www.example.com/thanks');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    // Scripts still get JSON.
    const json = await submit(form.key, { json: { a: 'c' } });
    expect(json.body).toMatchObject({ ok: true, submissionId: expect.any(String) });
  });

  it('completionMode is not a Pro setting (docs/api-basics.md#pro-settings): a team back on Free may set redirect with the URL it kept, and its browser posts see the thank-you page', async () => {
    const form = await newForm('pro', { redirectUrl: 'https://www.example.com/thanks' });
    expect((await admin('team', 'plan', '--team', form.teamId, '--plan', 'free')).code).toBe(0);
    const patched = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { completionMode: 'redirect' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      completionMode: 'redirect',
      redirectUrl: 'https://www.example.com/thanks',
    });
    const response = await submit(form.key, { form: { a: 'b' }, headers: BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });

  it('_redirect is Pro and may only lead back to the posting site or an allowed one', async () => {
    const pro = await newForm('pro');
    const same = await submit(pro.key, {
      form: { a: 'b', _redirect: 'https://shop.example.com/done' },
      headers: { ...BROWSER, origin: 'https://shop.example.com' },
    });
    expect(same.status).toBe(303);
    expect(same.headers.location).toBe('https://shop.example.com/done');
    const elsewhere = await submit(pro.key, {
      form: { a: 'c', _redirect: 'https://evil.example/phish' },
      headers: { ...BROWSER, origin: 'https://shop.example.com' },
    });
    expect(elsewhere.status).toBe(200);
    const script = await submit(pro.key, {
      form: { a: 'd', _redirect: 'javascript:alert(1)' },
      headers: { ...BROWSER, origin: 'https://shop.example.com' },
    });
    expect(script.status).toBe(200);
    const free = await newForm('free');
    const ignored = await submit(free.key, {
      form: { a: 'b', _redirect: 'https://shop.example.com/done' },
      headers: { ...BROWSER, origin: 'https://shop.example.com' },
    });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.location).toBeUndefined();
  });

  it('errors are pages with the reason and a link back to the page that posted', async () => {
    const form = await newForm('pro', {
      status: 'paused',
      closedMessage: 'Closed for <b>winter</b>',
    });
    const response = await submit(form.key, {
      form: { a: 'b' },
      headers: { ...BROWSER, referer: 'https://www.example.com/contact?x="1"' },
    });
    expect(response.status).toBe(423);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('Closed for &lt;b&gt;winter&lt;/b&gt;');
    expect(response.text).toContain('href="https://www.example.com/contact?x=&quot;1&quot;"');
    const missing = await submit('no-such-form', { form: { a: 'b' }, headers: BROWSER });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<html');
  });

  it('blocked and bot posts see the same thank-you page as everyone else', async () => {
    const form = await newForm('free');
    const bot = await submit(form.key, { form: { a: 'b', _gotcha: 'x' }, headers: BROWSER });
    const human = await submit(form.key, { form: { a: 'c' }, headers: BROWSER });
    expect(bot.status).toBe(200);
    expect(bot.text).toBe(human.text);
  });
});
