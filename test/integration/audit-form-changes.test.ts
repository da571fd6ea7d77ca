import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';

vi.setConfig({ testTimeout: 120_000 });

type AuditRow = { action: string; target: string | null; details: Record<string, unknown> };

let browser: Awaited<ReturnType<typeof launchChromium>>;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

/** docs/people.md#teams-members-keys-and-the-audit-trail */
describe('the audit trail says what changed of a form', () => {
  it('creating, copying and deleting forms; fields, auto-reply, design, Cc and retention changes, each with what changed and none of their text', async () => {
    const owner = await teamWithOwner('pro');
    const key = owner.apiKey;
    const created = await api('POST', '/v1/forms', {
      key,
      body: { name: 'Quotes', type: 'contact' },
    });
    const formId = created.body.id as string;
    const patch = async (body: Record<string, unknown>) => {
      const saved = await api('PATCH', `/v1/forms/${formId}`, { key, body });
      expect(saved.status, saved.text).toBe(200);
    };
    await patch({ notifyCc: ['sales@example.com', 'ops@example.com'] });
    await patch({ notifyCc: ['ops@example.com', 'desk@example.com'] });
    await patch({
      fields: [
        { id: 'name', type: 'text', label: 'Your name', required: true },
        { id: 'email', type: 'email', label: 'Email', required: true },
        { id: 'phone', type: 'tel', label: 'Phone' },
      ],
    });
    await patch({
      autoreplyEnabled: true,
      autoreplySubject: 'Thanks for asking',
      autoreplyBody: 'A secret-looking reply text',
    });
    await patch({ design: { theme: 'dark', title: 'Get a quote' } });
    await patch({ retentionDays: 90 });
    // A save that changes none of these records nothing.
    await patch({ name: 'Quote requests' });
    const copy = await api('POST', `/v1/forms/${formId}/duplicate`, { key, body: {} });
    expect(copy.status, copy.text).toBe(201);
    await api('DELETE', `/v1/forms/${copy.body.id}`, { key });

    const trail = await api('GET', '/v1/team/audit?limit=100', { key });
    expect(trail.status, trail.text).toBe(200);
    const events = (trail.body.events as AuditRow[])
      .slice()
      .reverse()
      .filter((event) => event.action.startsWith('form.'));
    expect(events.map((event) => [event.action, event.details])).toEqual([
      ['form.created', { name: 'Quotes', type: 'contact' }],
      [
        'form.notify_email_changed',
        {
          notifyEmail: '',
          previous: '',
          notifyCc: 'sales@example.com, ops@example.com',
          previousCc: '',
          ccAdded: 'sales@example.com, ops@example.com',
        },
      ],
      [
        'form.notify_email_changed',
        {
          notifyEmail: '',
          previous: '',
          notifyCc: 'ops@example.com, desk@example.com',
          previousCc: 'sales@example.com, ops@example.com',
          ccAdded: 'desk@example.com',
          ccRemoved: 'sales@example.com',
        },
      ],
      [
        'form.fields_changed',
        { fields: 3, added: 'Phone', removed: 'Message', changed: 'Your name' },
      ],
      ['form.autoreply_changed', { enabled: true, turned: 'on', changed: 'subject, text' }],
      // The design is replaced whole (docs/forms.md): the starter's accent went back to the default.
      ['form.design_changed', { changed: 'theme, accent, title' }],
      ['form.retention_changed', { retentionDays: 90 }],
      [
        'form.created',
        {
          name: 'Quote requests copy',
          type: 'contact',
          copiedFrom: formId,
          copiedFromName: 'Quote requests',
        },
      ],
      ['form.deleted', { name: 'Quote requests copy' }],
    ]);
    expect(JSON.stringify(trail.body)).not.toContain('secret-looking');

    // The team screen reads them as sentences (the changes were made with the team's first
    // API key): the Cc by address, not "from the team owner to the team owner".
    const dashboard = await dashboardAs(browser, owner.email, { path: '/team' });
    const { page } = dashboard;
    try {
      const audit = page.getByRole('region', { name: 'Audit trail' });
      for (const sentence of [
        'The API key “default” created the form Quote requests.',
        'The API key “default” changed where Quote requests sends its notifications: Cc added: desk@example.com; Cc removed: sales@example.com.',
        'The API key “default” changed the fields of Quote requests: added Phone; removed Message; changed Your name.',
        'The API key “default” turned on the auto-reply of Quote requests and changed its subject and text.',
        'The API key “default” changed the design of Quote requests: its theme, accent colour and title.',
        'The API key “default” created the form Quote requests copy (since deleted), a copy of Quote requests.',
        'The API key “default” deleted the form Quote requests copy.',
      ]) {
        await audit.getByRole('cell', { name: sentence, exact: true }).waitFor();
      }
      expect(await audit.getByText('from the team owner to the team owner').count()).toBe(0);
      await expectAccessible(page, 'the audit trail');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
