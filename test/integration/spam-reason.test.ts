import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { bulk, listSubmissions } from '#test/support/inbox.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/** The submission as the API shows it, read alone. */
async function shown(form: TestForm, id: string) {
  const one = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
  expect(one.status, one.text).toBe(200);
  return one.body as { isSpam: boolean; spamReason?: string };
}

async function posted(
  form: TestForm,
  json: Record<string, string>,
  from = freshVisitor(),
): Promise<string> {
  const response = await submit(form.key, { json, from });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

describe('the spam reason (docs/submissions.md#spam-reasons)', () => {
  it('is "links" for link spam and "duplicate" for a repeated post, in the list and alone; clean posts have none', async () => {
    const form = await newForm('free');
    const links = await posted(form, {
      message: 'buy http://a.example http://b.example http://c.example',
    });
    // A duplicate: the same answers from the same visitor.
    const visitor = freshVisitor();
    const first = await posted(form, { email: 'x@example.com', message: 'Hi there' }, visitor);
    const again = await posted(form, { message: 'Hi there', email: 'x@example.com' }, visitor);

    expect(await shown(form, links)).toMatchObject({ isSpam: true, spamReason: 'links' });
    expect(await shown(form, again)).toMatchObject({ isSpam: true, spamReason: 'duplicate' });
    const clean = await shown(form, first);
    expect(clean.isSpam).toBe(false);
    expect(clean).not.toHaveProperty('spamReason');

    const spam = await listSubmissions(form, '?filter=spam');
    const reasons = Object.fromEntries(
      (spam.body.items as { id: string; spamReason?: string }[]).map((i) => [i.id, i.spamReason]),
    );
    expect(reasons).toEqual({ [links]: 'links', [again]: 'duplicate' });
    const found = await api('GET', `/v1/forms/${form.id}/submissions/search?q=there&folder=spam`, {
      key: form.apiKey,
    });
    expect(found.body.items).toEqual([
      expect.objectContaining({ id: again, spamReason: 'duplicate' }),
    ]);
  });

  it('is "moved" when the owner moves a submission to spam, and goes when it is moved back', async () => {
    const form = await newForm('pro');
    const id = await posted(form, { message: `A real question ${crypto.randomUUID()}` });
    const toSpam = await bulk(form, 'PATCH', { target: { ids: [id] }, isSpam: true });
    expect(toSpam.body).toEqual({ count: 1 });
    expect(await shown(form, id)).toMatchObject({ isSpam: true, spamReason: 'moved' });

    const back = await bulk(form, 'PATCH', { target: { ids: [id] }, isSpam: false });
    expect(back.body).toEqual({ count: 1 });
    const after = await shown(form, id);
    expect(after.isSpam).toBe(false);
    expect(after).not.toHaveProperty('spamReason');
  });

  it('link spam moved out of spam and back is "moved": the last move is the reason', async () => {
    const form = await newForm('pro');
    const id = await posted(form, {
      message: `sale http://a.example http://b.example http://c.example ${crypto.randomUUID()}`,
    });
    expect((await shown(form, id)).spamReason).toBe('links');
    await bulk(form, 'PATCH', { target: { ids: [id] }, isSpam: false });
    expect(await shown(form, id)).not.toHaveProperty('spamReason');
    await bulk(form, 'PATCH', {
      target: { filter: 'all', asOf: new Date().toISOString() },
      isSpam: true,
    });
    expect(await shown(form, id)).toMatchObject({ isSpam: true, spamReason: 'moved' });
  });
});
