import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asMember, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { stack } from '#test/support/api.ts';
import { launchChromium, siteServing } from '#test/support/browser.ts';

vi.setConfig({ testTimeout: 60_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

/** A page that posts a form to the service at once, as a forging site would. */
const forgingPage = (action: string) => `<!doctype html><html><body>
<form id="f" method="post" action="${action}" enctype="text/plain">
<input name='{"name":"Forged","x":"' value='"}'></form>
<script>document.getElementById('f').submit()</script></body></html>`;

describe('a signed-in member’s browser cannot be made to change things from another page', () => {
  it.each([
    [
      'another origin of the same site (127.0.0.1, another port): the cookie goes, 403 csrf',
      'same-site',
      403,
    ],
    ['another site (localhost): SameSite=Lax keeps the cookie home, 401', 'cross-site', 401],
  ] as const)('%s', async (_what, kind, status) => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const base = stack().baseUrl;
    const site = await siteServing({ '/': forgingPage(`${base}/v1/forms`) });
    const origin =
      kind === 'same-site' ? site.origin.replace('localhost', '127.0.0.1') : site.origin;
    const context = await browser.newContext();
    await context.addCookies([
      {
        name: 'fs_session',
        value: cookie.split('=')[1]!,
        url: base,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    const page = await context.newPage();
    try {
      const answer = page.waitForResponse((response) => response.url() === `${base}/v1/forms`);
      await page.goto(`${origin}/`);
      const response = await answer;
      expect(response.status()).toBe(status);
      if (status === 403) expect(await response.json()).toMatchObject({ error: 'csrf' });
    } finally {
      await context.close();
      await site.close();
    }
    const forms = await asMember(cookie, 'GET', '/v1/forms');
    expect(forms.body.forms, 'nothing was created').toEqual([]);
  });

  it('the same request from the service’s own origin, with the cookie, is taken', async () => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const base = stack().baseUrl;
    const context = await browser.newContext();
    await context.addCookies([
      {
        name: 'fs_session',
        value: cookie.split('=')[1]!,
        url: base,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    const page = await context.newPage();
    try {
      await page.goto(`${base}/v1/openapi.json`);
      const status = await page.evaluate(async () => {
        const response = await fetch('/v1/forms', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Mine' }),
        });
        return response.status;
      });
      expect(status).toBe(201);
    } finally {
      await context.close();
    }
  });
});
