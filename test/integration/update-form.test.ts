import { beforeAll, describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';

const text = (n: number) => 'x'.repeat(n);
const field = (i: number) => ({ id: `f${i}`, type: 'text' });
const ipv4 = (i: number) => `10.${Math.floor(i / 256)}.${i % 256}.1`;
const future = () => new Date(Date.now() + 86_400_000).toISOString();

/** [setting, values just inside the bounds, values just outside]. */
const BOUNDS: [string, unknown[], unknown[]][] = [
  ['name', [text(1), text(200)], ['', text(201), 5]],
  ['type', ['custom', 'feedback'], ['survey', null]],
  ['status', ['paused', 'active'], ['closed', null]],
  ['emoji', ['🎉', text(32), null], [text(33), 1]],
  ['maxSubmissions', [1, 1_000_000, null], [0, 1_000_001, 1.5, '5']],
  ['autoCloseAt', [future(), null], ['2001-01-01T00:00:00Z', 'tomorrow', 5]],
  ['closedMessage', [text(1), text(500), null], ['', text(501)]],
  ['notifyEnabled', [false, true], ['yes', null]],
  ['notifyEmail', ['owner@example.com', null], ['not-an-email', `${text(250)}@example.com`]],
  [
    'notifyCc',
    [[], ['a@example.com', 'b@example.com', 'c@example.com', `${text(242)}@example.com`]],
    [
      ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'],
      ['not-an-email'],
      [`${text(250)}@example.com`],
      'a@example.com',
      null,
    ],
  ],
  [
    'notifySubject',
    [text(1), text(500), 'New: {{ form.name }} {{field.email}}'],
    ['', text(501), null, 'two\nlines', 'New: {{name}}'],
  ],
  ['notifyFromName', [text(1), text(100)], ['', text(101), null]],
  [
    'autoreplySubject',
    [text(1), text(500), null, 'Thanks, {{field.name}}'],
    ['', text(501), 'Thanks, {{name}}'],
  ],
  [
    'autoreplyBody',
    [text(1), text(5000), null, 'Re {{submission.id}}'],
    ['', text(5001), 'Dear {{Name}}'],
  ],
  ['completionMode', ['message', 'default'], ['popup', null]],
  ['completionTitle', [text(1), text(200), null], ['', text(201)]],
  ['completionMessage', [text(1), text(2000), null], ['', text(2001)]],
  [
    'redirectUrl',
    ['https://example.com/thanks', 'http://example.com/', null, ''],
    ['ftp://example.com', 'not a url'],
  ],
  [
    'fields',
    [[], Array.from({ length: 30 }, (_, i) => field(i)), null],
    [Array.from({ length: 31 }, (_, i) => field(i)), 'x'],
  ],
  [
    'design',
    [{}, { theme: 'dark', accent: '#112233', submitLabel: text(50) }],
    [{ theme: 'neon' }, { submitLabel: text(51) }, { font: 'x' }],
  ],
  [
    'allowedOrigins',
    [[], Array.from({ length: 50 }, (_, i) => `https://site${i}.example.com`)],
    [Array.from({ length: 51 }, (_, i) => `https://site${i}.example.com`), ['not a url']],
  ],
  [
    'blockedIps',
    [[], Array.from({ length: 1000 }, (_, i) => ipv4(i)), ['2001:db8::1']],
    [Array.from({ length: 1001 }, (_, i) => ipv4(i)), ['300.1.1.1']],
  ],
  [
    'blockedCountries',
    [[], ['de', 'US']],
    [['XX'], ['DEU'], Array.from({ length: 301 }, () => 'DE')],
  ],
  ['dontStoreIp', [true, false], ['true']],
  ['allowUploads', [true, false], [1]],
  ['uploadLimitMb', [1, 100, 10], [0, 101, 2.5]],
  ['captchaSiteKey', [text(1), null], ['']],
];

let key: string;
let formId: string;
beforeAll(async () => {
  key = (await newTeam('pro')).apiKey;
  formId = (await api('POST', '/v1/forms', { key, body: { name: 'Bounds' } })).body.id as string;
});

describe('PATCH /v1/forms/{id} bounds', () => {
  it.each(BOUNDS)(
    '%s: every value inside the bounds is saved, every value outside is 400 and saves nothing',
    async (setting, inside, outside) => {
      for (const value of inside) {
        const response = await api('PATCH', `/v1/forms/${formId}`, {
          key,
          body: { [setting]: value },
        });
        expect(response.status, `${setting} = ${JSON.stringify(value).slice(0, 60)}`).toBe(200);
      }
      const before = (await api('GET', `/v1/forms/${formId}`, { key })).body;
      for (const value of outside) {
        const response = await api('PATCH', `/v1/forms/${formId}`, {
          key,
          body: { [setting]: value },
        });
        expect(response.status, `${setting} = ${JSON.stringify(value).slice(0, 60)}`).toBe(400);
        expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
        expect((response.body.issues as { path: string }[])[0]!.path.startsWith(setting)).toBe(
          true,
        );
      }
      expect((await api('GET', `/v1/forms/${formId}`, { key })).body).toEqual(before);
    },
  );
});

describe('PATCH /v1/forms/{id} rules', () => {
  it('refuses a {{…}} in an email text that is not a placeholder: 400 at the setting, the known ones in the message', async () => {
    const response = await api('PATCH', `/v1/forms/${formId}`, {
      key,
      body: { autoreplySubject: 'Thanks, {{name}}', notifyFromName: 'Desk' },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(response.body.issues).toEqual([
      {
        path: 'autoreplySubject',
        code: 'custom',
        message:
          'Unknown placeholder {{name}}. The placeholders are {{form.name}}, {{form.id}}, ' +
          '{{submission.id}}, {{submission.createdAt}} and {{field.<id>}} (the answer named <id>).',
      },
    ]);
  });

  it('notifyCc: a bad address is 400 invalid_request at its index; the same address in another case is kept once', async () => {
    const id = (await api('POST', '/v1/forms', { key, body: { name: 'Cc' } })).body.id as string;
    const refused = await api('PATCH', `/v1/forms/${id}`, {
      key,
      body: { notifyCc: ['desk@example.com', 'sales@example.com', 'sales at example.com'] },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(refused.body.issues).toEqual([
      { path: 'notifyCc.2', code: 'invalid_format', message: 'Must be an email address' },
    ]);
    const saved = await api('PATCH', `/v1/forms/${id}`, {
      key,
      body: { notifyCc: [' Desk@Example.com', 'sales@example.com', 'desk@example.com'] },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.notifyCc).toEqual(['Desk@Example.com', 'sales@example.com']);
    expect((await api('GET', `/v1/forms/${id}`, { key })).body.notifyCc).toEqual([
      'Desk@Example.com',
      'sales@example.com',
    ]);
    // Where notifications go is audited, the other recipients too.
    const trail = await api('GET', '/v1/team/audit?limit=100', { key });
    const changed = (
      trail.body.events as { action: string; target: string; details: unknown }[]
    ).find((event) => event.action === 'form.notify_email_changed' && event.target === id);
    expect(changed?.details).toEqual({
      notifyEmail: '',
      previous: '',
      notifyCc: 'Desk@Example.com, sales@example.com',
      previousCc: '',
      ccAdded: 'Desk@Example.com, sales@example.com',
    });
  });

  it('keeps what is left out, clears what is null, replaces fields and design whole', async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Rules' } })).body.id as string;
    await api('PATCH', `/v1/forms/${id}`, {
      body: {
        emoji: '📮',
        closedMessage: 'Closed for now',
        design: { theme: 'dark', title: 'Hi' },
      },
    });
    const changed = await api('PATCH', `/v1/forms/${id}`, {
      body: {
        closedMessage: null,
        design: { accent: '#000000' },
        fields: [{ id: 'only', type: 'email' }],
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Rules',
      emoji: '📮',
      closedMessage: null,
      design: { accent: '#000000' },
      fields: [{ id: 'only', type: 'email' }],
    });
    expect(changed.body.design).not.toHaveProperty('theme');
    expect((await api('GET', `/v1/forms/${id}`)).body).toEqual(changed.body);
  });

  it('drops paths from allowed origins and keeps scheme, host and port', async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Origins' } })).body.id as string;
    const response = await api('PATCH', `/v1/forms/${id}`, {
      body: {
        allowedOrigins: [
          'https://Example.com/contact?x=1',
          'http://localhost:8080/a/b',
          'https://example.com:443/',
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.allowedOrigins).toEqual(['https://example.com', 'http://localhost:8080']);
  });

  it('pausing closes the form manually and activating reopens it', async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Status' } })).body.id as string;
    const paused = await api('PATCH', `/v1/forms/${id}`, { body: { status: 'paused' } });
    expect(paused.body).toMatchObject({ status: 'paused', closedReason: 'manual' });
    const active = await api('PATCH', `/v1/forms/${id}`, { body: { status: 'active' } });
    expect(active.body).toMatchObject({ status: 'active', closedReason: null });
  });

  it('never returns the captcha secret, and enabling the captcha needs both keys', async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Captcha' } })).body.id as string;
    const refused = await api('PATCH', `/v1/forms/${id}`, {
      body: { captchaEnabled: true, captchaSiteKey: 'site' },
    });
    expect(refused.status).toBe(400);
    const enabled = await api('PATCH', `/v1/forms/${id}`, {
      body: { captchaEnabled: true, captchaSiteKey: 'site', captchaSecretKey: 'top-secret-value' },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({
      captchaEnabled: true,
      captchaSecretKeySet: true,
      captchaProvider: 'turnstile',
    });
    expect(enabled.text).not.toContain('top-secret-value');
    expect((await api('GET', `/v1/forms/${id}`)).text).not.toContain('top-secret-value');
  });

  it("answers 404 for another team's form and leaves it unchanged", async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Guarded' } })).body.id as string;
    const other = await newTeam('pro');
    const response = await api('PATCH', `/v1/forms/${id}`, {
      key: other.apiKey,
      body: { name: 'Taken' },
    });
    expect(response.status).toBe(404);
    expect((await api('GET', `/v1/forms/${id}`)).body.name).toBe('Guarded');
  });
});

describe('PATCH /v1/forms/{id} on a Free team', () => {
  const PRO_SETTINGS: Record<string, unknown> = {
    closedMessage: 'Closed',
    notifyEmail: 'someone@example.com',
    notifyCc: ['someone@example.com'],
    notifyFromName: 'Acme',
    autoreplyEnabled: true,
    autoreplySubject: 'Thanks',
    autoreplyBody: 'We got it',
    completionTitle: 'Thanks',
    completionMessage: 'We got it',
    redirectUrl: 'https://example.com/thanks',
    allowUploads: true,
    uploadLimitMb: 20,
  };

  it.each(Object.entries(PRO_SETTINGS))(
    '%s answers 402 plan_required and the form is exactly as before',
    async (setting, value) => {
      const team = await newTeam('free');
      const id = (await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Free' } })).body
        .id as string;
      const before = (await api('GET', `/v1/forms/${id}`, { key: team.apiKey })).body;
      const response = await api('PATCH', `/v1/forms/${id}`, {
        key: team.apiKey,
        body: { name: 'Renamed too', [setting]: value },
      });
      expect(response.status).toBe(402);
      expect(response.body).toMatchObject({ ok: false, error: 'plan_required' });
      expect((await api('GET', `/v1/forms/${id}`, { key: team.apiKey })).body).toEqual(before);
    },
  );

  it('may clear Pro settings and change Free ones', async () => {
    const team = await newTeam('free');
    const id = (await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Free' } })).body
      .id as string;
    const response = await api('PATCH', `/v1/forms/${id}`, {
      key: team.apiKey,
      body: {
        name: 'Still free',
        closedMessage: null,
        notifyCc: [],
        redirectUrl: '',
        uploadLimitMb: 10,
        allowUploads: false,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('Still free');
  });
});
