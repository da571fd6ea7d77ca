import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { eventually } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newForm(): Promise<string> {
  return (await api('POST', '/v1/forms', { body: { name: 'Closing' } })).body.id as string;
}

/**
 * The form `ms` from now. Only to prove a close that must NOT happen did not: the old
 * schedule (2 s ahead) would have fired and its closer run well within 4 s.
 */
async function statusAfter(id: string, ms: number) {
  await sleep(ms);
  return (await api('GET', `/v1/forms/${id}`)).body;
}

describe('scheduled closing (autoCloseAt)', () => {
  it('a close date 2 s ahead closes the form through the Scheduler and the form closer', async () => {
    const id = await newForm();
    const at = inSeconds(2);
    expect((await api('PATCH', `/v1/forms/${id}`, { body: { autoCloseAt: at } })).status).toBe(200);
    expect((await api('GET', `/v1/forms/${id}`)).body.status).toBe('active');
    const form = await eventually(
      async () => (await api('GET', `/v1/forms/${id}`)).body,
      (read) => read.status !== 'active',
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    expect(form).toMatchObject({
      status: 'paused',
      closedReason: 'auto_close_date',
      autoCloseAt: at,
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));

    const reopened = await api('PATCH', `/v1/forms/${id}`, { body: { status: 'active' } });
    expect(reopened.body).toMatchObject({
      status: 'active',
      closedReason: null,
      autoCloseAt: null,
    });
  });

  it('moving the close date later is honoured: the old time passes and the form stays open', async () => {
    const id = await newForm();
    await api('PATCH', `/v1/forms/${id}`, { body: { autoCloseAt: inSeconds(2) } });
    const later = inSeconds(3600);
    await api('PATCH', `/v1/forms/${id}`, { body: { autoCloseAt: later } });
    expect(await statusAfter(id, 4_000)).toMatchObject({
      status: 'active',
      closedReason: null,
      autoCloseAt: later,
    });
  });

  it('clearing the close date is honoured: the old time passes and the form stays open', async () => {
    const id = await newForm();
    await api('PATCH', `/v1/forms/${id}`, { body: { autoCloseAt: inSeconds(2) } });
    await api('PATCH', `/v1/forms/${id}`, { body: { autoCloseAt: null } });
    expect(await statusAfter(id, 4_000)).toMatchObject({
      status: 'active',
      closedReason: null,
      autoCloseAt: null,
    });
  });

  it('the closer ignores a schedule whose date is no longer the form’s, or has not come yet', async () => {
    const { forms } = await localStore();
    const id = await newForm();
    const at = inSeconds(3600);
    await api('PATCH', `/v1/forms/${id}`, { body: { autoCloseAt: at } });
    const after = new Date(Date.parse(at) + 1000);
    expect(await forms.closeFormOnSchedule(id, inSeconds(7200), after)).toBe(false);
    expect(await forms.closeFormOnSchedule(id, at, new Date())).toBe(false);
    expect((await api('GET', `/v1/forms/${id}`)).body.status).toBe('active');
    expect(await forms.closeFormOnSchedule(id, at, after)).toBe(true);
    expect((await api('GET', `/v1/forms/${id}`)).body).toMatchObject({
      status: 'paused',
      closedReason: 'auto_close_date',
    });
  });
});
