import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FORM_TYPES } from '#domain/form-model.ts';
import type { Contract } from '#http/contract.ts';
import { embedScript } from '#http/pages/embed-script.ts';
import { contract as formJsonContract } from '#http/pages/get-form-json.ts';
import { contract as formPageContract } from '#http/pages/get-form-page.ts';
import { buildEmbedScript } from '#lib/pages/embed-asset.ts';
import { admin } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { TEST_MIN_FILL_TIME_MS } from './stack-settings.ts';

/**
 * The hosted form page, its JSON and the embed script over plain HTTP:
 * statuses, content types, the policy, escaping, and that no secret setting
 * ever reaches a visitor. test/integration/form-page-browser.test.ts drives
 * them in Chromium.
 */

const STARTER_LABELS: Record<string, string[]> = {
  contact: ['Name', 'Email', 'Message'],
  waitlist: ['Email', 'Name'],
  feedback: ['Rating', 'Message'],
  rsvp: ['Name', 'Email', 'Attending', 'Guests'],
  // No fields: any field is accepted, and the page draws name, email and message.
  custom: ['Name', 'Email', 'Message'],
};

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values] as const;
    }),
  );
}

const page = (key: string, headers: Record<string, string> = {}) =>
  api('GET', `/f/${key}`, { key: null, headers: { accept: 'text/html', ...headers } });
const publicJson = (key: string, headers: Record<string, string> = {}) =>
  api('GET', `/f/${key}/form.json`, { key: null, headers });

describe('GET /f/{key}', () => {
  for (const type of FORM_TYPES) {
    it(`draws a ${type} form with its starter fields, the special fields and a strict CSP`, async () => {
      const form = await newForm('free', {}, { name: `A ${type} form`, type });
      const response = await page(form.key);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toHaveLength(1);
      const nonce = csp.get('style-src')![0]!.match(/^'nonce-([A-Za-z0-9+/=]+)'$/)?.[1];
      expect(nonce, 'style-src is a nonce').toBeDefined();
      expect(response.text).toContain(`<style nonce="${nonce}">`);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(['*']);
      // No inline script: only the data block and this origin's script.
      const scripts = [...response.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
      expect(scripts).toEqual([
        ' type="application/json" id="fs-data"',
        ' src="../embed.js" data-page async',
      ]);
      expect(response.text).toContain(`<title>A ${type} form</title>`);
      expect(response.text).toContain(`action="../s/${form.key}"`);
      expect(response.text).not.toContain('enctype=');
      expect(response.text).toContain('name="_gotcha"');
      expect(response.text).toMatch(/<input type="hidden" name="_t" value="\d{13}">/);
      for (const label of STARTER_LABELS[type]!) {
        expect(response.text).toMatch(new RegExp(`<(label|legend)[^>]*>${label}`));
      }
      // A new page each time: the stamp and the nonce differ.
      const again = await page(form.key);
      expect(again.headers.get('content-security-policy')).not.toBe(
        response.headers.get('content-security-policy'),
      );
    });
  }

  it('with a trailing slash its URLs still reach the endpoint and the script', async () => {
    const form = await newForm('free', {}, { name: 'Slash', type: 'contact' });
    const response = await page(`${form.key}/`);
    expect(response.status).toBe(200);
    expect(response.text).toContain(`action="../../s/${form.key}"`);
    expect(response.text).toContain('src="../../embed.js"');
  });

  it('an unknown key is the endpoint’s 404: a page for a browser, the envelope otherwise', async () => {
    const html = await page('no-such-form-key');
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('Form not found');
    const envelope = await api('GET', '/f/no-such-form-key', { key: null });
    expect(envelope.status).toBe(404);
    expect(envelope.body).toEqual({
      ok: false,
      error: 'not_found',
      message: 'No form has this address',
    });
    expect((await api('GET', '/f/-bad', { key: null })).status).toBe(404);
  });

  it('every answer, the 404s included, carries the CORS its contract declares: none', async () => {
    const corsOf = (headers: Headers) => ({
      allowOrigin: headers.get('access-control-allow-origin'),
      exposed: headers.get('access-control-expose-headers'),
    });
    const none = { allowOrigin: null, exposed: null };
    expect((formPageContract as Contract).cors ?? false).toBe(false);
    const form = await newForm('free', {}, { name: 'Page', type: 'contact' });
    const shown = await page(form.key, { origin: 'https://anyone.example' });
    expect(shown.status).toBe(200);
    expect(corsOf(shown.headers)).toEqual(none);
    const missingPage = await page('no-such-form-key', { origin: 'https://anyone.example' });
    expect(missingPage.status).toBe(404);
    expect(corsOf(missingPage.headers)).toEqual(none);
    const missingEnvelope = await api('GET', '/f/no-such-form-key', {
      key: null,
      headers: { origin: 'https://anyone.example' },
    });
    expect(missingEnvelope.status).toBe(404);
    expect(corsOf(missingEnvelope.headers)).toEqual(none);
    // Its JSON declares CORS: the same 404 there carries it.
    expect(formJsonContract.cors).toBe(true);
    const missingJson = await publicJson('no-such-form-key');
    expect(corsOf(missingJson.headers)).toEqual({
      allowOrigin: '*',
      exposed: 'x-request-id, retry-after, idempotent-replayed',
    });
  });

  it('escapes every setting it shows', async () => {
    const evil = '<script>alert(1)</script>"\'&';
    const form = await newForm(
      'free',
      {
        design: { title: evil, description: evil, submitLabel: '"><b>x', successMessage: evil },
        fields: [
          {
            id: 'pick',
            type: 'select',
            label: '"><img src=x onerror=alert(1)>',
            helpText: evil,
            placeholder: evil,
            options: ['</option><script>x</script>', 'b"c'],
          },
          { id: 'code', type: 'text', label: 'Code', pattern: '[a-z]+"<', placeholder: evil },
        ],
      },
      { name: 'Escapes', type: 'custom' },
    );
    const response = await page(form.key);
    expect(response.status).toBe(200);
    expect(response.text).not.toContain('<script>alert');
    expect(response.text).not.toContain('<script>x');
    // The only image is the page's own view image (docs/analytics.md#views), not the label's.
    expect(response.text.match(/<img[^>]*>/g)).toEqual([
      `<img src="../f/${form.key}/views" alt="" width="1" height="1" hidden>`,
    ]);
    expect(response.text).not.toContain('<b>');
    expect(response.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
    expect(response.text).toContain('pattern="[a-z]+&quot;&lt;"');
    // The JSON block cannot be closed by a value.
    const block = response.text.match(
      /<script type="application\/json" id="fs-data">(.*?)<\/script>/s,
    )!;
    expect(block[1]).not.toContain('<');
    expect(JSON.parse(block[1]!).title).toBe(evil);
  });

  it('a paused form shows the default closed message; a Pro form its own; no form either way', async () => {
    const paused = await newForm('free', { status: 'paused' }, { name: 'P', type: 'contact' });
    const free = await page(paused.key);
    expect(free.status).toBe(200);
    expect(free.text).toContain('This form is closed and no longer accepts submissions.');
    expect(free.text).not.toContain('<form');
    expect(free.text).not.toContain('embed.js');
    const pro = await newForm(
      'pro',
      { status: 'paused', closedMessage: 'See you next year <3' },
      { name: 'P', type: 'contact' },
    );
    const own = await page(pro.key);
    expect(own.text).toContain('See you next year &lt;3');
    expect(own.text).not.toContain('<form');
    expect((await publicJson(pro.key)).body).toMatchObject({
      closedMessage: 'See you next year <3',
    });
  });

  it('frame-ancestors follows allowedOrigins', async () => {
    const form = await newForm(
      'free',
      { allowedOrigins: ['https://shop.example', 'https://blog.example'] },
      { name: 'Locked', type: 'contact' },
    );
    const csp = directives((await page(form.key)).headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toEqual([
      "'self'",
      'https://shop.example',
      'https://blog.example',
    ]);
  });

  it('a form with uploads posts multipart and draws its file field, and its CSP lets the script post to the uploads bucket; without uploads the file field is drawn disabled, saying so', async () => {
    const fields = [
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'cv', type: 'file', label: 'Your CV' },
    ];
    const pro = await newForm(
      'pro',
      { allowUploads: true, fields },
      { name: 'Jobs', type: 'custom' },
    );
    const withUploads = await page(pro.key);
    expect(withUploads.text).toContain('enctype="multipart/form-data"');
    expect(withUploads.text).toContain('type="file"');
    // connect-src names the origin of the presigned POSTs the uploads route answers.
    const granted = await api<{ uploads: { url: string }[] }>('POST', `/s/${pro.key}/uploads`, {
      key: null,
      body: { files: [{ name: 'cv.pdf', size: 1000, type: 'application/pdf', field: 'cv' }] },
    });
    expect(granted.status, granted.text).toBe(200);
    const bucketOrigin = new URL(granted.body.uploads[0]!.url).origin;
    expect(bucketOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(
      directives(withUploads.headers.get('content-security-policy')).get('connect-src'),
    ).toEqual(["'self'", bucketOrigin]);
    // A team back on Free: its form cannot take files; the field is drawn, disabled, saying so.
    const toFree = await admin('team', 'plan', '--team', pro.teamId, '--plan', 'free');
    expect(toFree.code, toFree.stderr).toBe(0);
    const without = await page(pro.key);
    expect(without.text).not.toContain('enctype=');
    expect(without.text).toContain('Your CV');
    expect(without.text).toMatch(/<input id="fs-f-cv" name="cv" type="file" disabled/);
    expect(without.text).toContain('This form cannot receive files at the moment.');
    expect(directives(without.headers.get('content-security-policy')).get('connect-src')).toEqual([
      "'self'",
    ]);
  });
});

describe('no secret setting reaches a visitor', () => {
  it('the page and the JSON show the captcha site key, never the secret, addresses or block lists', async () => {
    const secrets = {
      captchaSecretKey: '0x4AAAAAAAsecretsecretsecret',
      notifyEmail: 'owner-secret@example.com',
      autoreplySubject: 'Autoreply subject secret',
      autoreplyBody: 'Autoreply body secret',
      blockedIps: ['203.0.113.77'],
      blockedCountries: ['KP'],
      notifySubject: 'Notify subject secret',
    };
    const form = await newForm(
      'pro',
      {
        ...secrets,
        autoreplyEnabled: true,
        captchaSiteKey: '0x4AAAAAAAsitekey',
        captchaEnabled: true,
      },
      { name: 'Secretive', type: 'contact' },
    );
    const html = await page(form.key);
    const json = await publicJson(form.key);
    expect(json.status).toBe(200);
    for (const text of [html.text, json.text]) {
      for (const value of Object.values(secrets).flat()) expect(text).not.toContain(value);
      expect(text).not.toContain(form.id);
      expect(text).not.toContain(form.teamId);
      expect(text).toContain('0x4AAAAAAAsitekey');
    }
    expect(html.text).toContain('class="fs-field cf-turnstile" data-sitekey="0x4AAAAAAAsitekey"');
    const csp = directives(html.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(csp.get('frame-src')).toEqual(['https://challenges.cloudflare.com']);
    // The fill-time minimum the script waits out is the stack's setting (the test stack's).
    expect(json.body.minFillMs).toBe(TEST_MIN_FILL_TIME_MS);
    expect(Object.keys(json.body).sort()).toEqual(
      [
        'accent',
        'captchaSiteKey',
        'closedMessage',
        'description',
        'fields',
        'filesOff',
        'key',
        'minFillMs',
        'multipart',
        // The steps the page's script walks: page ids, titles, fields and jumps, no setting.
        'pages',
        'redirectUrl',
        'renderedAt',
        'submitLabel',
        'successMessage',
        'successTitle',
        'theme',
        'title',
      ].sort(),
    );
  });
});

describe('GET /f/{key}/form.json', () => {
  it('answers the public form to any website when allowedOrigins is empty', async () => {
    const form = await newForm('free', {}, { name: 'Open', type: 'rsvp' });
    const response = await publicJson(form.key, { origin: 'https://anyone.example' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body).toMatchObject({
      key: form.key,
      title: 'Open',
      theme: 'auto',
      accent: '#2563eb',
      closedMessage: null,
      captchaSiteKey: null,
      multipart: false,
    });
    expect((response.body.fields as { id: string }[]).map((f) => f.id)).toEqual([
      'name',
      'email',
      'attending',
      'guests',
    ]);
  });

  it('with allowedOrigins, answers only those websites (Origin, else Referer), like the endpoint', async () => {
    const form = await newForm(
      'free',
      { allowedOrigins: ['https://shop.example'] },
      { name: 'Locked', type: 'contact' },
    );
    expect((await publicJson(form.key, { origin: 'https://shop.example' })).status).toBe(200);
    expect((await publicJson(form.key, { referer: 'https://shop.example/contact' })).status).toBe(
      200,
    );
    const refused = await publicJson(form.key, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: 'origin_not_allowed' });
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect((await publicJson(form.key)).status).toBe(403);
  });

  it('an unknown key is 404 not_found', async () => {
    const response = await publicJson('no-such-form-key');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: 'not_found' });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /embed.js', () => {
  it('serves the client as JavaScript, cacheable, under 15 KB gzipped', async () => {
    const response = await api('GET', '/embed.js', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.text).toBe(embedScript());
    expect(gzipSync(response.text).length).toBeLessThan(15 * 1024);
  });

  it('the served script is the current build (else run `node lib/pages/write-embed.ts`)', () => {
    expect(buildEmbedScript() === embedScript(), 'embed-script.generated.ts is stale').toBe(true);
  });
});
