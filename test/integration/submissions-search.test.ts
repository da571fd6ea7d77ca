import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

interface SearchBody {
  items: { id: string; preview: string; isSpam: boolean }[];
  next: string | null;
  searched: number;
  total: number;
}

const search = (form: { id: string; apiKey: string }, query: string) =>
  api<SearchBody>('GET', `/v1/forms/${form.id}/submissions/search?${query}`, { key: form.apiKey });

describe('searching a form’s answers', () => {
  it('reads 200 submissions a call, newest first, until the cursor ends; finds every match, case and accents aside', async () => {
    await localStore();
    const form = await newForm('pro');
    // 450 submissions; every 7th holds "Crème brûlée" (i = 0, 7, ... 448: 65 of them).
    const { ids } = await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 450,
      // A second apart, so newest first is i = 449 down to 0.
      receivedAt: (i) => new Date(Date.now() - (450 - i) * 1000),
      data: (i) => ({
        name: `Visitor ${i}`,
        email: `v${i}@example.com`,
        message: i % 7 === 0 ? `I loved the Crème brûlée, number ${i}` : `Plain note ${i}`,
      }),
    });
    const found: string[] = [];
    const searched: number[] = [];
    let cursor: string | null = null;
    do {
      const response = await search(
        form,
        `q=${encodeURIComponent('CREME brulee')}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.status, response.text).toBe(200);
      expect(response.body.total).toBe(450);
      found.push(...response.body.items.map((item) => item.id));
      searched.push(response.body.searched);
      cursor = response.body.next;
    } while (cursor);
    expect(searched).toEqual([200, 200, 50]);
    const expected = ids.filter((_, newestFirst) => (449 - newestFirst) % 7 === 0);
    expect(found).toEqual(expected);
    expect(found).toHaveLength(65);
  });

  it('keeps to the folder asked for and answers 400 for a bad query, 404 for another team', async () => {
    await localStore();
    const form = await newForm('pro');
    await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 3,
      data: () => ({ m: 'win a prize' }),
      flags: { isSpam: true },
    });
    await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 2,
      data: () => ({ m: 'a real prize question' }),
    });
    expect((await search(form, 'q=prize')).body.items).toHaveLength(2);
    expect((await search(form, 'q=prize&folder=spam')).body.items).toHaveLength(3);
    expect((await search(form, 'q=prize&folder=spam')).body.items.every((i) => i.isSpam)).toBe(
      true,
    );
    for (const bad of ['', 'q=', 'q=x&folder=trash', 'q=x&cursor=nope', `q=${'x'.repeat(201)}`]) {
      const response = await search(form, bad);
      expect(response.status, bad).toBe(400);
    }
    const other = await newForm('pro');
    const foreign = await api('GET', `/v1/forms/${form.id}/submissions/search?q=prize`, {
      key: other.apiKey,
    });
    expect(foreign.status).toBe(404);
  });
});
