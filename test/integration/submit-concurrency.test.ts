import { describe, expect, it } from 'vitest';
import { admin } from '../support/admin.ts';
import { api } from '../support/api.ts';
import { newForm, storedItems } from '../support/forms.ts';
import { localStore } from '../support/store.ts';
import { freshVisitor, submit } from '../support/submit.ts';

/** 200 visitors posting different answers at once. */
function burst(key: string) {
  return Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      submit(key, { json: { visitor: `visitor ${i}` }, from: freshVisitor() }),
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
});
