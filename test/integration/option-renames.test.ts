import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { bulk } from '#test/support/inbox.ts';
import { eventually } from '#test/support/poll.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * Changing a choice field's options (docs/forms.md#changing-options): the
 * summary's rows always add up to the answers, old words shown as such, and a
 * rename counts the old answers again under the new words.
 */

type Choice = {
  kind: 'choice';
  answered: number;
  counts: Record<string, number>;
  former: Record<string, number>;
};
const today = () => new Date().toISOString().slice(0, 10);

async function serviceSummary(form: TestForm): Promise<Choice> {
  const summary = await api<{ fields: Record<string, Choice> }>(
    'GET',
    `/v1/forms/${form.id}/summary?from=${today()}&to=${today()}&tz=UTC`,
    { key: form.apiKey },
  );
  expect(summary.status, summary.text).toBe(200);
  return summary.body.fields.service!;
}

/** The summary once the stream has counted `answered` answers of the field. */
const summaryWith = (form: TestForm, answered: number) =>
  eventually(
    () => serviceSummary(form),
    (field) => field.answered === answered,
    // Every half second: 100 ms for 30 s is the API key's 300 requests a minute on its own.
    { timeoutMs: 30_000, intervalMs: 500 },
  );

const fields = (options: string[], formerOptions?: Record<string, string | null>) => [
  {
    id: 'service',
    type: 'radio',
    label: 'Service',
    required: true,
    options,
    ...(formerOptions ? { formerOptions } : {}),
  },
];

async function answer(form: TestForm, service: string, times: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < times; i++) {
    const posted = await submit(form.key, { json: { service }, from: freshVisitor() });
    expect(posted.status, posted.text).toBe(200);
    ids.push(posted.body?.submissionId as string);
  }
  return ids;
}

const rows = (field: Choice) =>
  [...Object.values(field.counts), ...Object.values(field.former)].reduce((a, b) => a + b, 0);

describe('renaming an option keeps its history', () => {
  it('“Deep clean” → “Deep cleaning”: 26 answered, rows adding to 26, the old words apart; carried over, all under the new words', async () => {
    const form = await newForm('free', { fields: fields(['Deep clean', 'Regular']) });
    const old = await answer(form, 'Deep clean', 13);
    await summaryWith(form, 13);

    // Renamed by an API client that says nothing of the old words: they are kept apart.
    const renamed = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { fields: fields(['Deep cleaning', 'Regular']) },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((renamed.body.fields as { formerOptions?: unknown }[])[0]?.formerOptions).toEqual({
      'Deep clean': null,
    });
    await answer(form, 'Deep cleaning', 13);
    const apart = await summaryWith(form, 26);
    expect(apart).toEqual({
      kind: 'choice',
      answered: 26,
      counts: { 'Deep cleaning': 13, Regular: 0 },
      former: { 'Deep clean': 13 },
    });
    expect(rows(apart)).toBe(26);

    // Carried over (a rename): counted again under the new words, at once.
    const carried = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { fields: fields(['Deep cleaning', 'Regular'], { 'Deep clean': 'Deep cleaning' }) },
    });
    expect(carried.status, carried.text).toBe(200);
    expect(await serviceSummary(form)).toEqual({
      kind: 'choice',
      answered: 26,
      counts: { 'Deep cleaning': 26, Regular: 0 },
      former: {},
    });

    // An old answer moved to spam leaves the right row, never a negative one.
    const moved = await bulk(form, 'PATCH', { target: { ids: [old[0]] }, isSpam: true });
    expect(moved.body).toEqual({ count: 1 });
    const after = await summaryWith(form, 25);
    expect(after.counts).toEqual({ 'Deep cleaning': 25, Regular: 0 });
    expect(rows(after)).toBe(25);
    // The answers themselves keep the words they were given in.
    const one = await api('GET', `/v1/forms/${form.id}/submissions/${old[1]}`, {
      key: form.apiKey,
    });
    expect((one.body.data as { service: string }).service).toBe('Deep clean');
  });

  it('a rename to words that are not an option is 400 at the former option; the hosted form never shows former options', async () => {
    const form = await newForm('free', { fields: fields(['A', 'B']) });
    const refused = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { fields: fields(['A', 'B'], { Old: 'C' }) },
    });
    expect(refused.status).toBe(400);
    expect((refused.body.issues as { path: string }[])[0]?.path).toBe('fields.0.formerOptions.Old');
    await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { fields: fields(['A', 'B'], { Old: 'A' }) },
    });
    const json = await api('GET', `/f/${form.key}/form.json`, { key: null });
    expect(JSON.stringify(json.body)).not.toContain('Old');
  });
});
