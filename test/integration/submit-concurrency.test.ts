import { describe, expect, it } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';
import { newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/** `count` visitors posting different answers at once. */
function burst(key: string, count = 200, label = 'visitor') {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      submit(key, { json: { visitor: `${label} ${i}` }, from: freshVisitor() }),
    ),
  );
}

function tally(responses: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('limits under concurrency', () => {
  it('200 concurrent posts to a form with maxSubmissions 50 store exactly 50; 150 get 423', async () => {
    const form = await newForm('pro', { maxSubmissions: 50 });
    const responses = await burst(form.key);
    expect(tally(responses)).toEqual({ 200: 50, 423: 150 });
    expect(await storedItems(form.id)).toHaveLength(50);
    const after = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(after.body).toMatchObject({ status: 'paused', closedReason: 'max_submissions' });
    const list = await api('GET', '/v1/forms', { key: form.apiKey });
    expect((list.body.forms as { submissionCount: number }[])[0]?.submissionCount).toBe(50);
  });

  it('200 concurrent posts against a monthly allowance of 50 store exactly 50; 150 get 402', async () => {
    const form = await newForm('pro');
    const set = await admin('team', 'allowance', '--team', form.teamId, '--submissions', '50');
    expect(set.code, set.stderr).toBe(0);
    const responses = await burst(form.key);
    expect(tally(responses)).toEqual({ 200: 50, 402: 150 });
    expect(await storedItems(form.id)).toHaveLength(50);
    const { usage } = await localStore();
    expect(await usage.monthlyUsage(form.teamId, new Date().toISOString().slice(0, 7))).toBe(50);
  });

  it('allowance 40: 35 posts, then 10 at once store exactly 5, and the 3 counted 38th to 40th warn near_limit', async () => {
    const form = await newForm('pro');
    const set = await admin('team', 'allowance', '--team', form.teamId, '--submissions', '40');
    expect(set.code, set.stderr).toBe(0);
    const before = [...(await burst(form.key, 20, 'early')), ...(await burst(form.key, 15, 'mid'))];
    expect(tally(before)).toEqual({ 200: 35 });
    // 95 % of 40 is 38: nothing before it warns.
    expect(before.filter((r) => r.body?.warning)).toEqual([]);
    const last = await burst(form.key, 10, 'late');
    expect(tally(last)).toEqual({ 200: 5, 402: 5 });
    const stored = last.filter((r) => r.status === 200);
    // The counts written were 36 to 40, whichever post wrote which: exactly three reach 38.
    expect(stored.filter((r) => r.body?.warning === 'near_limit')).toHaveLength(3);
    expect(stored.filter((r) => r.body?.warning === undefined)).toHaveLength(2);
    expect(await storedItems(form.id)).toHaveLength(40);
  });

  it('allowance 20: 10 at once after 15 warn on exactly the posts counted 19th and 20th', async () => {
    const form = await newForm('pro');
    const set = await admin('team', 'allowance', '--team', form.teamId, '--submissions', '20');
    expect(set.code, set.stderr).toBe(0);
    expect(tally(await burst(form.key, 15, 'first'))).toEqual({ 200: 15 });
    const last = await burst(form.key, 10, 'second');
    expect(tally(last)).toEqual({ 200: 5, 402: 5 });
    expect(last.filter((r) => r.body?.warning === 'near_limit')).toHaveLength(2);
  });
});
