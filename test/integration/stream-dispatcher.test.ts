import { describe, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, storedItems } from '#test/support/forms.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { TEST_RETENTION_DAY_SECONDS, TEST_RETENTION_SWEEP_SECONDS } from './stack-settings.ts';

// The stream dispatcher hands each record to the workers that want it, through their FIFO
// queues, one form's records in the stream's order (docs/architecture.md#workers). The
// deleted form's purge and the expired spam's are tested in delete-form and spam-bounds.

const PAST_ONE_DAY = { timeout: (TEST_RETENTION_DAY_SECONDS + 5) * 1000, interval: 200 };

// The two run at once, each with its own expect (the global one cannot tell which test polls).
describe.concurrent('the stream dispatcher', () => {
  it('two quick changes of a form’s retention apply in their order, at once: keep 10 years, then 1 day, deletes what is past a day before any sweep', async ({
    expect,
  }) => {
    const form = await newForm('free');
    const posted = await submit(form.key, { json: { message: 'old' }, from: freshVisitor() });
    expect(posted.status, posted.text).toBe(200);
    await expect
      .poll(
        async () => Date.now() - Date.parse((await storedItems(form.id))[0]!.createdAt as string),
        PAST_ONE_DAY,
      )
      .toBeGreaterThan(TEST_RETENTION_DAY_SECONDS * 1000 + 200);
    for (const retentionDays of [3650, 1]) {
      const patched = await api('PATCH', `/v1/forms/${form.id}`, {
        key: form.apiKey,
        body: { retentionDays },
      });
      expect(patched.status, patched.text).toBe(200);
    }
    // The 1-day change itself purges (the next sweep is TEST_RETENTION_SWEEP_SECONDS away).
    await expect
      .poll(async () => (await storedItems(form.id)).length, {
        timeout: (TEST_RETENTION_SWEEP_SECONDS - 2) * 1000,
        interval: 200,
      })
      .toBe(0);
  });

  it('two quick changes the other way, 2 days then 10 years, made before a submission passes 2 days, keep it past them', async ({
    expect,
  }) => {
    const form = await newForm('free');
    const posted = await submit(form.key, { json: { message: 'young' }, from: freshVisitor() });
    expect(posted.status, posted.text).toBe(200);
    // 2 (test) days: 6 s for both changes to be applied, however busy the machine.
    for (const retentionDays of [2, 3650]) {
      const patched = await api('PATCH', `/v1/forms/${form.id}`, {
        key: form.apiKey,
        body: { retentionDays },
      });
      expect(patched.status, patched.text).toBe(200);
    }
    // Past two (test) days and past the sweep the last change scheduled: still stored.
    const ageOf = async () =>
      Date.now() - Date.parse((await storedItems(form.id))[0]!.createdAt as string);
    await expect
      .poll(ageOf, {
        timeout: (TEST_RETENTION_SWEEP_SECONDS + 2 * TEST_RETENTION_DAY_SECONDS + 5) * 1000,
        interval: 250,
      })
      .toBeGreaterThan(
        Math.max(TEST_RETENTION_SWEEP_SECONDS, 2 * TEST_RETENTION_DAY_SECONDS) * 1000 + 1000,
      );
    expect((await storedItems(form.id)).map((item) => item.id)).toEqual([
      posted.body?.submissionId,
    ]);
  });
});
