import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { seedSuppressions } from '#test/support/suppressions.ts';

/**
 * `GET /v1/team/suppressions` a page at a time (docs/delivery.md#suppressed-addresses):
 * `limit` and `cursor` as the audit trail takes them, in the order the table keeps the
 * list (by mailbox). Entries are seeded as the event worker writes them
 * (test/support/suppressions.ts).
 */

type Page = { suppressions: { email: string; submissionId: string }[]; next: string | null };

const list = (form: TestForm, query = '') =>
  api<Page>('GET', `/v1/team/suppressions${query}`, { key: form.apiKey });

describe('the suppression list, a page at a time', () => {
  it('pages by address with limit and cursor until next is null; every entry once; another team sees none', async () => {
    const form = await newForm('pro');
    const addresses = await seedSuppressions(form.teamId, 7);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(
        form,
        `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(response.status, response.text).toBe(200);
      expect(response.body.suppressions.length).toBeLessThanOrEqual(3);
      seen.push(...response.body.suppressions.map((entry) => entry.email));
      cursor = response.body.next;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(addresses);
    expect(pages).toBe(3);

    const first = await list(form, '?limit=3');
    expect(first.body.next).toBe(addresses[2]);
    const other = await newForm('pro');
    expect((await list(other)).body).toEqual({ suppressions: [], next: null });
  });

  it('answers 50 by default with a next, the rest after it', async () => {
    const form = await newForm('pro');
    const addresses = await seedSuppressions(form.teamId, 55);
    const first = await list(form);
    expect(first.status, first.text).toBe(200);
    expect(first.body.suppressions).toHaveLength(50);
    expect(first.body.next).toBe(addresses[49]);
    const rest = await list(form, `?cursor=${encodeURIComponent(first.body.next!)}`);
    expect(rest.body.suppressions.map((entry) => entry.email)).toEqual(addresses.slice(50));
    expect(rest.body.next).toBeNull();
  });

  it('a bad limit or cursor is 400 invalid_request naming it', async () => {
    const form = await newForm('pro');
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=x', 'limit'],
      ['?cursor=nope', 'cursor'],
      [`?cursor=${'a'.repeat(320)}@example.com`, 'cursor'],
      ['?page=2', 'page'],
    ] as const) {
      const response = await list(form, query);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ ok: false, error: 'invalid_request' });
      expect(JSON.stringify(response.body), query).toContain(field);
    }
  });
});
