import { describe, expect, it, vi } from 'vitest';
import { emailHash } from '#domain/email-index.ts';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

// Seeding a few thousand items and reading them back takes seconds under the full suite.
vi.setConfig({ testTimeout: 120_000 });

interface Exported {
  submissions: { id: string; formId: string; formName: string; data: Record<string, string> }[];
}

/** A form of the team, by the API, as a person would make it. */
async function teamForm(apiKey: string, name: string): Promise<string> {
  const created = await api('POST', '/v1/forms', { key: apiKey, body: { name, type: 'custom' } });
  expect(created.status, created.text).toBe(201);
  // Notifications off: a thousand seeded posts of 5 KB would fill the local inbox (and every
  // later test's read of it) with a notification each.
  const quiet = await api('PATCH', `/v1/forms/${created.body.id}`, {
    key: apiKey,
    body: { notifyEnabled: false },
  });
  expect(quiet.status, quiet.text).toBe(200);
  return created.body.id as string;
}

/**
 * Seeds `count` submissions holding `email` straight into the table, with
 * their email index entries as the storing transaction writes them
 * (docs/privacy.md#how-a-person-is-found); oldest first, one a millisecond.
 */
async function seedPerson(
  team: { teamId: string },
  formId: string,
  email: string,
  count: number,
  answerBytes: number,
): Promise<string[]> {
  await localStore();
  const { putEmailIndexEntries } = await import('#store/email-index.ts');
  const start = Date.now() - count - 60_000;
  const { ids } = await seedSubmissions({
    formId,
    teamId: team.teamId,
    count,
    receivedAt: (i) => new Date(start + i),
    data: (i) => ({ email, message: `${'x'.repeat(answerBytes)} #${i}` }),
  });
  const hash = emailHash(process.env.KEYED_HASH_SECRET!, team.teamId, email);
  await putEmailIndexEntries(
    team.teamId,
    ids.map((submissionId) => ({ formId, submissionId, hash })),
  );
  return ids;
}

describe('GET /v1/privacy/submissions?email= streamed', () => {
  it('exports a person past 5 MB whole: every submission, form by form, newest first, one parseable document', async () => {
    const team = await teamWithOwner('pro');
    const email = `big-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const first = await teamForm(team.apiKey, 'Applications');
    const second = await teamForm(team.apiKey, 'Contact');
    // 1,200 submissions of about 5 KB: some 6 MB, past the 6 MB a buffered Lambda answer holds.
    const firstIds = await seedPerson(team, first, email, 900, 5_000);
    const secondIds = await seedPerson(team, second, email, 300, 5_000);

    const response = await fetch(
      `${stack().baseUrl}/v1/privacy/submissions?email=${encodeURIComponent(email)}`,
      { headers: { authorization: `Bearer ${team.apiKey}` } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="submissions-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    // Streamed: chunked, no length known up front.
    expect(response.headers.get('content-length')).toBeNull();
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(6 * 2 ** 20);

    const document = JSON.parse(text) as Exported;
    const forms = [first, second].sort();
    const expected = forms.flatMap((formId) => (formId === first ? firstIds : secondIds));
    // seedSubmissions answers ids newest first; the document keeps that order in each form.
    expect(document.submissions.map((s) => s.id)).toEqual(expected);
    const names = new Map([
      [first, 'Applications'],
      [second, 'Contact'],
    ]);
    for (const submission of document.submissions) {
      expect(submission.formName).toBe(names.get(submission.formId));
      expect(submission.data.email).toBe(email);
    }
  });

  it('orders a form of more than one read (100) newest first throughout', async () => {
    const team = await teamWithOwner('pro');
    const email = `many-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const form = await teamForm(team.apiKey, 'Many');
    const ids = await seedPerson(team, form, email, 250, 10);
    const exported = await api<Exported>(
      'GET',
      `/v1/privacy/submissions?email=${encodeURIComponent(email)}`,
      { key: team.apiKey },
    );
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.submissions.map((s) => s.id)).toEqual(ids);
  });
});
