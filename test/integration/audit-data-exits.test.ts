import { describe, expect, it, vi } from 'vitest';
import { asMember, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';

// Sign-in emails travel the local queue and SES emulator, shared with the whole suite.
vi.setConfig({ testTimeout: 90_000 });

type AuditRow = {
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  actor: Record<string, unknown>;
};

describe('the audit trail records every way data leaves', () => {
  it('webhook connected, changed, copied and disconnected, notifyEmail, CSV export, key rotation, test submission, sign-out and sessions ended: each with what left and no secret', async () => {
    const owner = await teamWithOwner('pro');
    const key = owner.apiKey;
    const form = await api('POST', '/v1/forms', { key, body: { name: 'Leaky' } });
    const formId = form.body.id as string;
    const token = `tok${crypto.randomUUID().replaceAll('-', '')}`;

    const connected = await api('PUT', `/v1/forms/${formId}/webhook`, {
      key,
      body: { url: `https://hooks.example.com/in/${token}?sig=${token}` },
    });
    expect(connected.status, connected.text).toBe(201);
    const secret = connected.body.secret as string;
    await api('PUT', `/v1/forms/${formId}/webhook`, {
      key,
      body: { url: `https://other.example.net/in/${token}` },
    });
    const copy = await api('POST', `/v1/forms/${formId}/duplicate`, { key, body: {} });
    expect(copy.status, copy.text).toBe(201);
    // Disconnected before any post, so nothing is sent to those hosts from the test.
    await api('DELETE', `/v1/forms/${copy.body.id}/webhook`, { key });
    expect((await api('DELETE', `/v1/forms/${formId}/webhook`, { key })).status).toBe(200);

    await api('PATCH', `/v1/forms/${formId}`, { key, body: { notifyEmail: 'inbox@example.com' } });
    const tested = await api('POST', `/v1/forms/${formId}/test-submissions`, { key });
    expect(tested.status, tested.text).toBe(201);
    const csv = await api('GET', `/v1/forms/${formId}/export.csv?filter=unread`, { key });
    expect(csv.status).toBe(200);
    const rotated = await api('POST', `/v1/forms/${formId}/rotate-key`, { key });
    expect(rotated.status).toBe(200);

    const here = await signedIn(owner.email);
    await signedIn(owner.email);
    expect((await asMember(here, 'DELETE', '/v1/auth/sessions')).body).toEqual({ count: 1 });
    expect((await asMember(here, 'POST', '/v1/auth/sign-out')).status).toBe(200);

    const trail = await api('GET', '/v1/team/audit?limit=100', { key });
    expect(trail.status, trail.text).toBe(200);
    const events = (trail.body.events as AuditRow[]).slice().reverse();
    const after = events.filter((e) => !['auth.signed_in'].includes(e.action));
    expect(after.map((e) => [e.action, e.target])).toEqual([
      ['form.created', formId],
      ['webhook.connected', formId],
      ['webhook.url_changed', formId],
      ['form.created', copy.body.id],
      ['webhook.connected', copy.body.id],
      ['webhook.disconnected', copy.body.id],
      ['webhook.disconnected', formId],
      ['form.notify_email_changed', formId],
      ['form.test_submitted', formId],
      ['submissions.exported', formId],
      ['form.key_rotated', formId],
      ['auth.sessions_ended', owner.userId],
      ['auth.signed_out', owner.userId],
    ]);
    const details = (action: string) => after.find((e) => e.action === action)?.details;
    expect(details('webhook.connected')).toEqual({ host: 'hooks.example.com' });
    expect(details('webhook.url_changed')).toEqual({
      host: 'other.example.net',
      previousHost: 'hooks.example.com',
    });
    expect(after[4]?.details).toEqual({ host: 'other.example.net', copiedFrom: formId });
    expect(details('form.notify_email_changed')).toEqual({
      notifyEmail: 'inbox@example.com',
      previous: '',
    });
    expect(details('form.test_submitted')).toEqual({ submissionId: tested.body.submissionId });
    expect(details('submissions.exported')).toEqual({ filter: 'unread' });
    expect(details('auth.sessions_ended')).toEqual({ count: 1 });
    expect(after.find((e) => e.action === 'auth.signed_out')?.actor).toMatchObject({
      kind: 'member',
      email: owner.email,
    });

    const text = JSON.stringify(trail.body);
    for (const [what, value] of [
      ['the URL’s token', token],
      ['the webhook secret', secret],
      ['the API key', key],
      ['the session cookie', here.split('=')[1]!],
      ['the form’s new key', rotated.body.key as string],
    ]) {
      expect(text, `the trail holds ${what}`).not.toContain(value);
    }
  });
});
