import { describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { bulk, expectCountersExact, listSubmissions } from '#test/support/inbox.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { linkOnceScanned, scannerSetting, uploadsOf } from '#test/support/uploads.ts';
import { TEST_RETENTION_DAY_SECONDS, TEST_RETENTION_SWEEP_SECONDS } from './stack-settings.ts';

/** Long enough for a submission of a form keeping 1 (test) day to pass its age, and no longer. */
const PAST_ONE_DAY = { timeout: (TEST_RETENTION_DAY_SECONDS + 5) * 1000, interval: 200 };

async function postWithFile(form: TestForm, message: string): Promise<string> {
  const post = await multipart((f) => {
    f.append('message', message);
    f.append(
      'cv',
      new Blob([Buffer.from('%PDF-1.7\nretention')], { type: 'application/pdf' }),
      'cv.pdf',
    );
  });
  const posted = await submit(form.key, { ...post, from: freshVisitor() });
  expect(posted.status, posted.text).toBe(200);
  return posted.body?.submissionId as string;
}

const listedIds = async (form: TestForm) =>
  (await listSubmissions(form, '?pageSize=100')).body.items.map((item) => item.id);

async function searchedIds(form: TestForm, q: string) {
  const response = await api<{ items: { id: string }[] }>(
    'GET',
    `/v1/forms/${form.id}/submissions/search?q=${q}`,
    { key: form.apiKey },
  );
  expect(response.status).toBe(200);
  return response.body.items.map((item) => item.id);
}

async function exportedText(form: TestForm): Promise<string> {
  const response = await fetch(`${stack().baseUrl}/v1/forms/${form.id}/export.csv`, {
    headers: { authorization: `Bearer ${form.apiKey}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

const fileLink = (form: TestForm, id: string) =>
  api('GET', `/v1/forms/${form.id}/submissions/${id}/files/0`, { key: form.apiKey });

const storedIds = async (formId: string) => (await storedItems(formId)).map((item) => item.id);

// The three run at once: the first waits out a day and a sweep of the test stack's clock.
// (A concurrent test polls with its own expect: the global one cannot tell which test polls.)
describe.concurrent('retentionDays (docs/submissions.md#retention)', () => {
  it('hides a submission past its age at once from the list, search, export and file link; the sweep then deletes it with its files, counters exact', async ({
    expect,
  }) => {
    const form = await newForm('pro', { allowUploads: true, retentionDays: 1 });
    await scannerSetting(form.id, { delayMs: 0 });
    // The control: the same reads of a form without a retention show what they hide on `form`.
    // (Reading `form` before its 3-second day passed failed once under a full run's load.)
    const other = await newForm('pro', { allowUploads: true });
    await scannerSetting(other.id, { delayMs: 0 });
    const old = await postWithFile(form, 'ancient words');
    const starred = await postWithFile(form, 'starred words');
    const untouched = await postWithFile(other, 'ancient words elsewhere');
    const star = await bulk(form, 'PATCH', { target: { ids: [starred] }, starred: true });
    expect(star.status, star.text).toBe(200);

    // Past one (test) day: gone from every read at once, though still stored (the form's
    // sweep comes TEST_RETENTION_SWEEP_SECONDS after the form's creation).
    await expect.poll(() => listedIds(form), PAST_ONE_DAY).toEqual([]);
    expect((await storedIds(form.id)).sort()).toEqual([old, starred].sort());
    expect(await uploadsOf(form.id)).toHaveLength(2);
    expect(await searchedIds(form, 'words')).toEqual([]);
    expect(await exportedText(form)).not.toContain('words');
    expect((await fileLink(form, old)).status).toBe(404);
    const single = await api('GET', `/v1/forms/${form.id}/submissions/${old}`, {
      key: form.apiKey,
    });
    expect(single.status).toBe(404);
    expect(await listedIds(other)).toEqual([untouched]);
    expect(await searchedIds(other, 'words')).toEqual([untouched]);
    expect(await exportedText(other)).toContain('ancient words elsewhere');
    expect((await linkOnceScanned(other, untouched, 0)).status).toBe(200);
    const shownElsewhere = await api('GET', `/v1/forms/${other.id}/submissions/${untouched}`, {
      key: other.apiKey,
    });
    expect(shownElsewhere.status).toBe(200);

    // The sweep deletes them with their files, through the counted bulk path.
    const sweptWithin = (TEST_RETENTION_SWEEP_SECONDS + 10) * 1000;
    await expect
      .poll(() => storedIds(form.id), { timeout: sweptWithin, interval: 250 })
      .toEqual([]);
    expect(await uploadsOf(form.id)).toEqual([]);
    await expectCountersExact(form.id);
    const list = await listSubmissions(form, '?pageSize=100');
    expect(list.body).toMatchObject({ total: 0, unreadCount: 0, items: [] });
    // A form without a retention keeps everything, however old.
    expect(await listedIds(other)).toEqual([untouched]);
    expect(await uploadsOf(other.id)).toHaveLength(1);
    // The sweep's mark is stored only: the form object does not show it.
    const shown = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(shown.body).not.toHaveProperty('retentionSweptAt');
    expect(shown.body.retentionDays).toBe(1);
  });

  it('a retention set or shortened later applies to the submissions the form already holds', async ({
    expect,
  }) => {
    const form = await newForm('free');
    const posted = await submit(form.key, {
      json: { message: 'kept until told' },
      from: freshVisitor(),
    });
    const id = posted.body?.submissionId as string;
    // Older than one (test) day, with no retention: still listed.
    await expect
      .poll(
        async () => Date.now() - Date.parse((await storedItems(form.id))[0]!.createdAt as string),
        PAST_ONE_DAY,
      )
      .toBeGreaterThan(TEST_RETENTION_DAY_SECONDS * 1000 + 200);
    expect(await listedIds(form)).toEqual([id]);

    const patched = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { retentionDays: 1 },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.retentionDays).toBe(1);
    expect(await listedIds(form)).toEqual([]);
    // The form item's change alone starts the purge.
    await expect.poll(() => storedIds(form.id)).toEqual([]);
    await expectCountersExact(form.id);
    expect((await listSubmissions(form)).body.total).toBe(0);
  });

  it('is null (keep) by default, takes 1 to 3650 whole days or null, on Free as on Pro', async ({
    expect,
  }) => {
    const form = await newForm('free');
    const path = `/v1/forms/${form.id}`;
    expect((await api('GET', path, { key: form.apiKey })).body.retentionDays).toBeNull();
    for (const bad of [0, 3651, 1.5, '30', -1]) {
      const response = await api('PATCH', path, { key: form.apiKey, body: { retentionDays: bad } });
      expect(response.status, `retentionDays ${bad}`).toBe(400);
      expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
      expect(response.body.issues).toEqual([expect.objectContaining({ path: 'retentionDays' })]);
    }
    for (const good of [3650, 30, null]) {
      const response = await api('PATCH', path, {
        key: form.apiKey,
        body: { retentionDays: good },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body.retentionDays).toBe(good);
      expect((await api('GET', path, { key: form.apiKey })).body.retentionDays).toBe(good);
    }
  });
});

describe('a change of retentionDays in the audit trail (docs/people.md#teams-members-keys-and-the-audit-trail)', () => {
  it('records form.retention_changed with the new and previous days (left out when kept until deleted); the same value again records nothing', async () => {
    const form = await newForm('free');
    const path = `/v1/forms/${form.id}`;
    for (const retentionDays of [30, 30, 7, null, null]) {
      const saved = await api('PATCH', path, { key: form.apiKey, body: { retentionDays } });
      expect(saved.status, saved.text).toBe(200);
    }
    // Another setting saved records no retention change.
    await api('PATCH', path, { key: form.apiKey, body: { name: 'Renamed' } });
    const trail = await api<{ events: { action: string; target: string; details: unknown }[] }>(
      'GET',
      '/v1/team/audit?limit=100',
      { key: form.apiKey },
    );
    expect(trail.status, trail.text).toBe(200);
    const changes = trail.body.events
      .filter((event) => event.action === 'form.retention_changed')
      .reverse();
    expect(changes).toEqual([
      expect.objectContaining({ target: form.id, details: { retentionDays: 30 } }),
      expect.objectContaining({
        target: form.id,
        details: { retentionDays: 7, previousRetentionDays: 30 },
      }),
      expect.objectContaining({ target: form.id, details: { previousRetentionDays: 7 } }),
    ]);
  });
});
