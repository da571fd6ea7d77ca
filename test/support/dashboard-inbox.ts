import type { Page } from 'playwright-core';
import { teamWithOwner } from './accounts.ts';
import { api } from './api.ts';
import type { DashboardPage } from './dashboard.ts';
import { seedSubmissions } from './seed-submissions.ts';

/**
 * A Pro contact form of its own team with `count` submissions a second
 * apart: `Person i`, `p<i>@example.com` and a message (default
 * `Note i about the order`); the newest is i = count - 1.
 */
export async function inboxWith(
  count: number,
  options: {
    fields?: unknown[];
    message?: (i: number) => string;
    /** The i-th submission's answers instead of a name, an email and the message. */
    data?: (i: number) => Record<string, string>;
  } = {},
) {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Triage', type: 'contact' },
  });
  const form = {
    id: created.body.id as string,
    key: created.body.key as string,
    apiKey: owner.apiKey,
  };
  if (options.fields) {
    await api('PATCH', `/v1/forms/${form.id}`, {
      key: owner.apiKey,
      body: { fields: options.fields },
    });
  }
  const message = options.message ?? ((i: number) => `Note ${i} about the order`);
  await seedSubmissions({
    formId: form.id,
    teamId: owner.teamId,
    count,
    receivedAt: (i) => new Date(Date.now() - (count - i) * 1000),
    data:
      options.data ??
      ((i) => ({ name: `Person ${i}`, email: `p${i}@example.com`, message: message(i) })),
  });
  return { owner, form };
}

/** The folder tabs as they read: `All 20`, `Unread 3`… */
export const folderCounts = async (page: Page) =>
  (await page.getByRole('navigation', { name: 'Folders' }).getByRole('link').allTextContents()).map(
    (text) => text.replace(/\s+/g, ' ').trim(),
  );

export const inboxRows = (page: Page) => page.getByRole('table').locator('tbody tr');

/** The dashboard once its inbox's table is drawn. */
export async function withTable(dashboard: Promise<DashboardPage>): Promise<DashboardPage> {
  const opened = await dashboard;
  await opened.page.getByRole('table').waitFor();
  return opened;
}
