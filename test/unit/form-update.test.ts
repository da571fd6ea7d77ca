import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import {
  DEFAULT_NOTIFY_FROM_NAME,
  DEFAULT_UPLOAD_LIMIT_MB,
  newForm,
} from '#domain/form-defaults.ts';
import { proSettingsIn } from '#domain/form-gating.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { applyFormUpdate, parseFormUpdate } from '#domain/form-update.ts';
import type { Issue } from '#domain/validation-issues.ts';

const created = new Date('2026-01-01T00:00:00.000Z');
const now = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms).toISOString();

const form = (overrides: Partial<FormRecord> = {}): FormRecord => ({
  ...newForm({ teamId: 't1', userId: 'u1', name: 'Contact', type: 'contact', now: created }),
  ...overrides,
});

/** A PATCH as the handler runs it: parse the body, then apply it. */
const patch = (current: FormRecord, body: unknown, plan: 'free' | 'pro' = 'pro') =>
  applyFormUpdate(current, parseFormUpdate(body), plan, now);

function refusal(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected the update to be refused');
}

const issuePaths = (error: ServiceError) => (error.issues as Issue[]).map((issue) => issue.path);

describe('applying an update', () => {
  it('an empty update keeps every setting and only moves updatedAt', () => {
    const current = form();
    const next = patch(current, {});
    expect(next).toEqual({ ...current, updatedAt: now.toISOString() });
    expect(next.createdAt).toBe(created.toISOString());
  });

  it('changes only what is sent', () => {
    const current = form({ emoji: '📝', maxSubmissions: 10 });
    const next = patch(current, { name: 'Renamed', notifyEnabled: false });
    expect(next).toEqual({
      ...current,
      name: 'Renamed',
      notifyEnabled: false,
      updatedAt: now.toISOString(),
    });
  });

  it('never changes the saved form it was given', () => {
    const current = form();
    const before = structuredClone(current);
    patch(current, { name: 'Renamed', fields: null, design: { theme: 'dark' } });
    expect(current).toEqual(before);
  });

  it('null clears each nullable setting', () => {
    const current = form({
      emoji: '📝',
      maxSubmissions: 10,
      autoCloseAt: later(60_000),
      closedMessage: 'Closed',
      notifyEmail: 'a@example.com',
      autoreplySubject: 'Thanks',
      autoreplyBody: 'Thanks',
      completionTitle: 'Thanks',
      completionMessage: 'Thanks',
      redirectUrl: 'https://example.com',
      captchaSiteKey: 'site',
      captchaSecretKey: 'secret',
      captchaProvider: 'turnstile',
    });
    const cleared = {
      emoji: null,
      maxSubmissions: null,
      autoCloseAt: null,
      closedMessage: null,
      notifyEmail: null,
      autoreplySubject: null,
      autoreplyBody: null,
      completionTitle: null,
      completionMessage: null,
      redirectUrl: null,
      fields: null,
      captchaSiteKey: null,
      captchaSecretKey: null,
    };
    expect(patch(current, cleared, 'free')).toMatchObject({ ...cleared, captchaProvider: null });
  });

  it('fields replace the whole list', () => {
    const current = form();
    expect(current.fields).toHaveLength(3);
    const next = patch(current, { fields: [{ id: 'rating', type: 'rating' }] });
    expect(next.fields).toEqual([{ id: 'rating', type: 'rating', max: 5 }]);
  });

  it('design replaces the whole object: keys not sent are gone', () => {
    const current = form({ design: { theme: 'dark', accent: '#123456', title: 'Old' } });
    expect(patch(current, { design: { title: 'New' } }).design).toEqual({ title: 'New' });
    expect(patch(current, { design: {} }).design).toEqual({});
  });

  it('changing type keeps the existing fields', () => {
    const current = form();
    expect(patch(current, { type: 'custom' }).fields).toEqual(current.fields);
  });

  it('stores the captcha secret it is given (it is only hidden on the way out)', () => {
    expect(patch(form(), { captchaSecretKey: 'secret' }).captchaSecretKey).toBe('secret');
  });
});

describe('status transitions', () => {
  it('pausing an open form closes it manually', () => {
    const next = patch(form(), { status: 'paused' });
    expect(next).toMatchObject({ status: 'paused', closedReason: 'manual' });
  });

  it('reopening clears the reason, whatever closed the form', () => {
    for (const closedReason of ['manual', 'max_submissions', 'auto_close_date'] as const) {
      const next = patch(form({ status: 'paused', closedReason }), { status: 'active' });
      expect(next).toMatchObject({ status: 'active', closedReason: null });
    }
  });

  it('reopening a form whose close date passed drops that date', () => {
    const current = form({
      status: 'paused',
      closedReason: 'auto_close_date',
      autoCloseAt: later(-1),
    });
    expect(patch(current, { status: 'active' }).autoCloseAt).toBeNull();
  });

  it('reopening keeps a close date still ahead, or takes a new one from the request', () => {
    const ahead = later(60_000);
    const closed = form({ status: 'paused', closedReason: 'manual', autoCloseAt: ahead });
    expect(patch(closed, { status: 'active' }).autoCloseAt).toBe(ahead);
    const expired = form({
      status: 'paused',
      closedReason: 'auto_close_date',
      autoCloseAt: later(-1),
    });
    expect(patch(expired, { status: 'active', autoCloseAt: ahead }).autoCloseAt).toBe(ahead);
  });

  it('sending paused for a form already closed automatically keeps its reason', () => {
    const current = form({ status: 'paused', closedReason: 'max_submissions' });
    expect(patch(current, { status: 'paused' }).closedReason).toBe('max_submissions');
  });

  it('sending active for an open form changes nothing about its state', () => {
    const ahead = later(60_000);
    const next = patch(form({ autoCloseAt: ahead }), { status: 'active' });
    expect(next).toMatchObject({ status: 'active', closedReason: null, autoCloseAt: ahead });
  });

  it('other updates leave the status and reason alone', () => {
    const current = form({ status: 'paused', closedReason: 'max_submissions' });
    expect(patch(current, { name: 'X' })).toMatchObject({
      status: 'paused',
      closedReason: 'max_submissions',
    });
  });
});

describe('autoCloseAt', () => {
  it('must be in the future at the time of the request', () => {
    expect(patch(form(), { autoCloseAt: later(1) }).autoCloseAt).toBe(later(1));
    for (const past of [later(0), later(-1), '2020-01-01T00:00:00Z']) {
      const error = refusal(() => patch(form(), { autoCloseAt: past }));
      expect(error.status).toBe(400);
      expect(error.code).toBe('invalid_request');
      expect(issuePaths(error)).toEqual(['autoCloseAt']);
    }
  });

  it('a saved date that has since passed does not block other changes', () => {
    const current = form({ autoCloseAt: later(-1) });
    expect(patch(current, { name: 'X' }).name).toBe('X');
  });
});

describe('captcha', () => {
  it('turning it on needs both keys: refused at captchaEnabled otherwise', () => {
    for (const saved of [
      {},
      { captchaSiteKey: 'site' },
      { captchaSecretKey: 'secret' },
    ] as Partial<FormRecord>[]) {
      const error = refusal(() => patch(form(saved), { captchaEnabled: true }));
      expect(error.status).toBe(400);
      expect(issuePaths(error)).toEqual(['captchaEnabled']);
    }
  });

  it('the keys can be saved before or come in the same request', () => {
    const both = { captchaSiteKey: 'site', captchaSecretKey: 'secret' };
    expect(patch(form(), { ...both, captchaEnabled: true }).captchaEnabled).toBe(true);
    expect(patch(form(both), { captchaEnabled: true }).captchaEnabled).toBe(true);
    const half = form({ captchaSiteKey: 'site', captchaProvider: 'turnstile' });
    expect(patch(half, { captchaSecretKey: 'secret', captchaEnabled: true })).toMatchObject({
      captchaEnabled: true,
      captchaSiteKey: 'site',
      captchaSecretKey: 'secret',
      captchaProvider: 'turnstile',
    });
  });

  it('a site key sets the provider to turnstile; clearing both keys clears it', () => {
    const withKey = patch(form(), { captchaSiteKey: 'site' });
    expect(withKey).toMatchObject({ captchaProvider: 'turnstile', captchaEnabled: false });
    const keys = form({
      captchaSiteKey: 'site',
      captchaSecretKey: 'secret',
      captchaProvider: 'turnstile',
    });
    expect(patch(keys, { captchaSiteKey: null }).captchaProvider).toBe('turnstile');
    expect(
      patch(keys, { captchaSiteKey: null, captchaSecretKey: null }).captchaProvider,
    ).toBeNull();
  });

  it('a key in use cannot be cleared unless captcha is turned off in the same request', () => {
    const enabled = form({
      captchaEnabled: true,
      captchaSiteKey: 'site',
      captchaSecretKey: 'secret',
      captchaProvider: 'turnstile',
    });
    expect(issuePaths(refusal(() => patch(enabled, { captchaSiteKey: null })))).toEqual([
      'captchaSiteKey',
    ]);
    expect(issuePaths(refusal(() => patch(enabled, { captchaSecretKey: null })))).toEqual([
      'captchaSecretKey',
    ]);
    const off = patch(enabled, {
      captchaEnabled: false,
      captchaSiteKey: null,
      captchaSecretKey: null,
    });
    expect(off).toMatchObject({
      captchaEnabled: false,
      captchaSiteKey: null,
      captchaSecretKey: null,
      captchaProvider: null,
    });
  });

  it('replacing a key while enabled is fine', () => {
    const enabled = form({
      captchaEnabled: true,
      captchaSiteKey: 'site',
      captchaSecretKey: 'secret',
      captchaProvider: 'turnstile',
    });
    expect(patch(enabled, { captchaSecretKey: 'rotated' }).captchaSecretKey).toBe('rotated');
  });
});

describe('completion mode', () => {
  it('redirect needs a redirect URL, saved or in the same request', () => {
    const error = refusal(() => patch(form(), { completionMode: 'redirect' }));
    expect(error.status).toBe(400);
    expect(issuePaths(error)).toEqual(['completionMode']);
    const url = 'https://example.com/thanks';
    expect(patch(form(), { completionMode: 'redirect', redirectUrl: url })).toMatchObject({
      completionMode: 'redirect',
      redirectUrl: url,
    });
    expect(patch(form({ redirectUrl: url }), { completionMode: 'redirect' }).completionMode).toBe(
      'redirect',
    );
  });

  it('the redirect URL cannot be removed (null or empty) while the mode is redirect', () => {
    const current = form({ completionMode: 'redirect', redirectUrl: 'https://example.com' });
    for (const redirectUrl of [null, '']) {
      expect(issuePaths(refusal(() => patch(current, { redirectUrl })))).toEqual(['redirectUrl']);
    }
    expect(patch(current, { redirectUrl: null, completionMode: 'default' }, 'free')).toMatchObject({
      redirectUrl: null,
      completionMode: 'default',
    });
  });
});

describe('Pro settings', () => {
  const url = 'https://example.com/thanks';
  /** Each Pro setting with a value that needs Pro and a request it is valid in. */
  const proOnly: [string, Record<string, unknown>, Partial<FormRecord>?][] = [
    ['closedMessage', { closedMessage: 'We are closed' }],
    ['notifyEmail', { notifyEmail: 'sales@example.com' }],
    ['notifyCc', { notifyCc: ['sales@example.com'] }],
    ['notifyFromName', { notifyFromName: 'Acme Sales' }],
    ['autoreplyEnabled', { autoreplyEnabled: true }],
    ['autoreplySubject', { autoreplySubject: 'Thanks' }],
    ['autoreplyBody', { autoreplyBody: 'We got your message' }],
    ['completionTitle', { completionTitle: 'Thanks' }],
    ['completionMessage', { completionMessage: 'We will be in touch' }],
    ['redirectUrl', { redirectUrl: url }],
    ['allowUploads', { allowUploads: true }],
    ['uploadLimitMb', { uploadLimitMb: 25 }],
  ];

  for (const [setting, body, saved] of proOnly) {
    it(`${setting}: a Free team gets 402 plan_required and nothing is applied; Pro applies it`, () => {
      const current = form(saved);
      const before = structuredClone(current);
      const error = refusal(() => patch(current, { ...body, name: 'Renamed' }, 'free'));
      expect(error.status).toBe(402);
      expect(error.code).toBe('plan_required');
      expect(error.message).toContain(setting);
      expect(issuePaths(error)).toEqual([setting]);
      expect(current).toEqual(before);

      expect(patch(current, body, 'pro')).toMatchObject(body);
    });
  }

  it('turning Pro settings off or back to their defaults is allowed on Free', () => {
    const current = form({
      closedMessage: 'x',
      notifyEmail: 'a@example.com',
      notifyFromName: 'Acme',
      autoreplyEnabled: true,
      autoreplySubject: 'x',
      autoreplyBody: 'x',
      completionMode: 'redirect',
      completionTitle: 'x',
      completionMessage: 'x',
      redirectUrl: url,
      allowUploads: true,
      uploadLimitMb: 50,
    });
    const off = {
      closedMessage: null,
      notifyEmail: null,
      notifyFromName: DEFAULT_NOTIFY_FROM_NAME,
      autoreplyEnabled: false,
      autoreplySubject: null,
      autoreplyBody: null,
      completionMode: 'default',
      completionTitle: null,
      completionMessage: null,
      redirectUrl: null,
      allowUploads: false,
      uploadLimitMb: DEFAULT_UPLOAD_LIMIT_MB,
    };
    expect(patch(current, off, 'free')).toMatchObject(off);
    expect(patch(current, { redirectUrl: '', completionMode: 'message' }, 'free')).toMatchObject({
      redirectUrl: null,
      completionMode: 'message',
    });
  });

  it('every completion mode is Free (docs/api-basics.md#pro-settings: its title, message and redirectUrl are Pro, not the mode)', () => {
    expect(patch(form(), { completionMode: 'message' }, 'free').completionMode).toBe('message');
    expect(patch(form({ redirectUrl: url }), { completionMode: 'redirect' }, 'free')).toMatchObject(
      { completionMode: 'redirect', redirectUrl: url },
    );
    for (const completionMode of ['default', 'message', 'redirect']) {
      expect(proSettingsIn(parseFormUpdate({ completionMode }))).toEqual([]);
    }
  });

  it('a Free team can still edit other settings of a form that kept Pro values', () => {
    const current = form({ closedMessage: 'Closed', allowUploads: true, uploadLimitMb: 50 });
    expect(patch(current, { name: 'Renamed' }, 'free')).toMatchObject({
      name: 'Renamed',
      closedMessage: 'Closed',
      allowUploads: true,
      uploadLimitMb: 50,
    });
  });

  it('one 402 names every Pro setting in the request, before any other check', () => {
    const error = refusal(() =>
      patch(
        form(),
        { notifyEmail: 'a@example.com', allowUploads: true, autoCloseAt: later(-1) },
        'free',
      ),
    );
    expect(error.status).toBe(402);
    expect(error.message).toContain('notifyEmail');
    expect(error.message).toContain('allowUploads');
    expect(issuePaths(error)).toEqual(['notifyEmail', 'allowUploads']);
  });

  it('settings that are not Pro go through on Free', () => {
    const body = {
      name: 'X',
      emoji: '🎉',
      maxSubmissions: 100,
      notifySubject: 'New {{form.name}}',
      notifyFromName: DEFAULT_NOTIFY_FROM_NAME,
      fields: [{ id: 'email', type: 'email' }],
      design: { theme: 'dark' },
      allowedOrigins: ['https://example.com'],
      blockedIps: ['192.0.2.1'],
      blockedCountries: ['us'],
      captchaSiteKey: 'site',
      captchaSecretKey: 'secret',
      captchaEnabled: true,
      dontStoreIp: true,
      uploadLimitMb: DEFAULT_UPLOAD_LIMIT_MB,
    };
    expect(patch(form(), body, 'free')).toMatchObject({ name: 'X', blockedCountries: ['US'] });
  });
});

describe('file fields need a form that accepts files (docs/forms.md#file-fields)', () => {
  const cv = { id: 'cv', type: 'file', label: 'CV', required: true };
  const name = { id: 'name', type: 'text', label: 'Name' };

  it('saving a file field while files are off is refused at its type, with the reason', () => {
    const error = refusal(() => patch(form(), { fields: [name, cv] }));
    expect(error.status).toBe(400);
    expect(issuePaths(error)).toEqual(['fields.1.type']);
    expect((error.issues as Issue[])[0]?.message).toContain('allowUploads');
  });

  it('is saved with allowUploads on, before or in the same request (Pro)', () => {
    expect(patch(form(), { fields: [cv], allowUploads: true })).toMatchObject({
      allowUploads: true,
      fields: [cv],
    });
    expect(patch(form({ allowUploads: true }), { fields: [cv] }).fields).toEqual([cv]);
  });

  it('on Free the same request is 402 (accepting files is Pro), and without it 400', () => {
    expect(refusal(() => patch(form(), { fields: [cv], allowUploads: true }, 'free')).status).toBe(
      402,
    );
    expect(refusal(() => patch(form(), { fields: [cv] }, 'free')).status).toBe(400);
  });

  it('turning files off while a file field remains is refused at allowUploads; removing both passes', () => {
    const accepting = form({ allowUploads: true, fields: [name, cv] as FormRecord['fields'] });
    const error = refusal(() => patch(accepting, { allowUploads: false }));
    expect(issuePaths(error)).toEqual(['allowUploads']);
    expect(patch(accepting, { allowUploads: false, fields: [name] }).allowUploads).toBe(false);
  });

  it('a form saved before the rule can still change its other settings', () => {
    const older = form({ fields: [cv] as FormRecord['fields'] });
    expect(patch(older, { name: 'Jobs' }).name).toBe('Jobs');
  });
});
