import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';

const FULL_FORM_FIELDS = [
  'id',
  'name',
  'type',
  'emoji',
  'key',
  'endpoint',
  'status',
  'closedReason',
  'maxSubmissions',
  'autoCloseAt',
  'closedMessage',
  'notifyEnabled',
  'notifyEmail',
  'notifyCc',
  'notifySubject',
  'notifyFromName',
  'autoreplyEnabled',
  'autoreplySubject',
  'autoreplyBody',
  'autoreplyAnswerPlaceholders',
  'autoreplyHourlyLimit',
  'completionMode',
  'completionTitle',
  'completionMessage',
  'redirectUrl',
  'retentionDays',
  'fields',
  'design',
  'allowedOrigins',
  'blockedIps',
  'blockedCountries',
  'captchaEnabled',
  'captchaProvider',
  'captchaSiteKey',
  'captchaSecretKeySet',
  'integrations',
  'pages',
  'notifyRules',
  'dontStoreIp',
  'markDuplicates',
  'unique',
  'confirmEmail',
  'allowUploads',
  'uploadLimitMb',
  'userId',
  'createdAt',
  'updatedAt',
].sort();

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /v1/forms', () => {
  it('creates a form with every setting at its default and answers the full object', async () => {
    const team = await newTeam('pro');
    const response = await api('POST', '/v1/forms', {
      key: team.apiKey,
      body: { name: 'Contact' },
    });
    expect(response.status).toBe(201);
    const form = response.body;
    expect(Object.keys(form).sort()).toEqual(FULL_FORM_FIELDS);
    expect(form).toMatchObject({
      name: 'Contact',
      type: 'contact',
      emoji: null,
      status: 'active',
      closedReason: null,
      maxSubmissions: null,
      autoCloseAt: null,
      unique: null,
      confirmEmail: null,
      notifyEnabled: true,
      notifySubject: 'New submission: {{form.name}}',
      autoreplyEnabled: false,
      autoreplyAnswerPlaceholders: false,
      autoreplyHourlyLimit: 100,
      completionMode: 'default',
      redirectUrl: null,
      allowedOrigins: [],
      blockedIps: [],
      blockedCountries: [],
      captchaEnabled: false,
      captchaSecretKeySet: false,
      dontStoreIp: false,
      markDuplicates: true,
      allowUploads: false,
      uploadLimitMb: 10,
      // No logic: one page of every field, the notification to notifyEmail.
      pages: null,
      notifyRules: [],
      userId: team.userId,
    });
    expect(form).not.toHaveProperty('captchaSecretKey');
    expect(form.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(form.key).toMatch(/^[a-z0-9][a-z0-9-]{0,63}$/);
    expect(form.endpoint).toBe(`${stack().baseUrl}/s/${form.key}`);
    expect(form.createdAt).toMatch(ISO_MS);
    expect(form.updatedAt).toBe(form.createdAt);
    expect((form.fields as { id: string }[]).map((f) => f.id)).toEqual([
      'name',
      'email',
      'message',
    ]);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['waitlist', ['email', 'name']],
    ['feedback', ['rating', 'message']],
    ['rsvp', ['name', 'email', 'attending', 'guests']],
  ])('starts a %s form with its starter fields', async (type, ids) => {
    const response = await api('POST', '/v1/forms', { body: { name: `A ${type}`, type } });
    expect(response.status).toBe(201);
    expect((response.body.fields as { id: string }[]).map((f) => f.id)).toEqual(ids);
  });

  it('starts a custom form with no fields (any field accepted)', async () => {
    const response = await api('POST', '/v1/forms', { body: { name: 'Anything', type: 'custom' } });
    expect(response.status).toBe(201);
    expect(response.body.fields).toBeNull();
  });

  it('accepts a name of exactly 200 characters, counting emoji as one', async () => {
    const name = `${'😀'.repeat(10)}${'n'.repeat(190)}`;
    const response = await api('POST', '/v1/forms', { body: { name } });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });

  it('refuses a name of 201 characters with 400 and the issue path', async () => {
    const response = await api('POST', '/v1/forms', { body: { name: 'n'.repeat(201) } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(response.body.issues).toEqual([expect.objectContaining({ path: 'name' })]);
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name that is not a string', { name: 42 }],
    ['an unknown type', { name: 'x', type: 'survey' }],
    ['an unknown property', { name: 'x', colour: 'red' }],
    ['a JSON array', ['name']],
  ])('refuses %s with 400 invalid_request', async (_what, body) => {
    const response = await api('POST', '/v1/forms', { body });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(Array.isArray(response.body.issues)).toBe(true);
  });

  it('refuses malformed JSON with 400 invalid_request', async () => {
    const response = await api('POST', '/v1/forms', {
      rawBody: '{"name": "Contact"',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await api('POST', '/v1/forms', {
      rawBody: 'name=Contact',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ ok: false, error: 'unsupported_media_type' });
  });

  it('answers 402 form_limit_reached on the fourth form of a Free team and stores nothing', async () => {
    const team = await newTeam('free');
    for (let i = 1; i <= 3; i++) {
      const created = await api('POST', '/v1/forms', {
        key: team.apiKey,
        body: { name: `Form ${i}` },
      });
      expect(created.status).toBe(201);
    }
    const refused = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Form 4' } });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ ok: false, error: 'form_limit_reached' });
    const list = await api<{ forms: unknown[] }>('GET', '/v1/forms', { key: team.apiKey });
    expect(list.body.forms).toHaveLength(3);
  });

  it('lets 10 parallel creates on a Free team holding 2 forms create exactly 1', async () => {
    const team = await newTeam('free');
    for (const name of ['One', 'Two']) {
      expect((await api('POST', '/v1/forms', { key: team.apiKey, body: { name } })).status).toBe(
        201,
      );
    }
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('POST', '/v1/forms', { key: team.apiKey, body: { name: `Race ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 402)).toHaveLength(9);
    const list = await api<{ forms: unknown[] }>('GET', '/v1/forms', { key: team.apiKey });
    expect(list.body.forms).toHaveLength(3);
  });

  it('has no Free limit on a Pro team', async () => {
    const team = await newTeam('pro');
    for (let i = 1; i <= 4; i++) {
      expect(
        (await api('POST', '/v1/forms', { key: team.apiKey, body: { name: `Form ${i}` } })).status,
      ).toBe(201);
    }
  });
});

describe('GET /v1/forms', () => {
  it("lists the team's forms newest first in the short shape", async () => {
    const team = await newTeam('pro');
    const created = [];
    for (const name of ['First', 'Second', 'Third']) {
      created.push((await api('POST', '/v1/forms', { key: team.apiKey, body: { name } })).body);
    }
    const response = await api<{ forms: Record<string, unknown>[] }>('GET', '/v1/forms', {
      key: team.apiKey,
    });
    expect(response.status).toBe(200);
    expect(response.body.forms.map((f) => f.name)).toEqual(['Third', 'Second', 'First']);
    const [newest] = response.body.forms;
    expect(Object.keys(newest!).sort()).toEqual(
      [
        'id',
        'name',
        'type',
        'emoji',
        'status',
        'key',
        'endpoint',
        'createdAt',
        'submissionCount',
        'testCount',
        'unreadCount',
      ].sort(),
    );
    expect(newest).toMatchObject({
      id: created[2]!.id,
      key: created[2]!.key,
      endpoint: created[2]!.endpoint,
      submissionCount: 0,
      testCount: 0,
    });
  });

  it("never shows another team's forms", async () => {
    const mine = await newTeam('pro');
    const theirs = await newTeam('pro');
    await api('POST', '/v1/forms', { key: theirs.apiKey, body: { name: 'Theirs' } });
    const response = await api<{ forms: unknown[] }>('GET', '/v1/forms', { key: mine.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.forms).toEqual([]);
  });
});

describe('GET /v1/forms/{id}', () => {
  it('answers the full object as created', async () => {
    const created = await api('POST', '/v1/forms', { body: { name: 'Lookup' } });
    const response = await api('GET', `/v1/forms/${created.body.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body);
  });

  it("answers 404 not_found for another team's form", async () => {
    const created = await api('POST', '/v1/forms', { body: { name: 'Private' } });
    const other = await newTeam('pro');
    const response = await api('GET', `/v1/forms/${created.body.id}`, { key: other.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%E0%A4%A'])(
    'answers 404 not_found for form id %s',
    async (id) => {
      const response = await api('GET', `/v1/forms/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    },
  );
});
