import { expect } from 'vitest';
import { api } from './api.ts';
import { storedItems, type TestForm } from './forms.ts';
import { localStore } from './store.ts';
import { freshVisitor, submit } from './submit.ts';

/** Posts each answer set to the form in turn (oldest first); returns the submission ids. */
export async function postAll(
  form: TestForm,
  answers: readonly Record<string, string>[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const data of answers) {
    const response = await submit(form.key, { json: data, from: freshVisitor() });
    expect(response.status, response.text).toBe(200);
    ids.push(response.body?.submissionId as string);
    // Distinct milliseconds keep the newest-first order unambiguous.
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  return ids;
}

export interface ListBody {
  items: (Record<string, unknown> & { id: string; preview: string; read: boolean })[];
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  unreadCount: number;
  asOf: string;
}

export function listSubmissions(form: TestForm, query = '') {
  return api<ListBody>('GET', `/v1/forms/${form.id}/submissions${query}`, { key: form.apiKey });
}

export function bulk(form: TestForm, method: 'PATCH' | 'DELETE', body: unknown) {
  return api<{ count: number }>(method, `/v1/forms/${form.id}/submissions`, {
    key: form.apiKey,
    body,
  });
}

/**
 * Every counter the list and the form list show, recounted from the stored
 * items themselves, and every item's folder index keys checked against its
 * flags: what a bulk change must keep exact.
 */
export async function expectCountersExact(formId: string): Promise<void> {
  const items = await storedItems(formId);
  const expected = { count_all: 0, count_unread: 0, count_starred: 0, count_spam: 0 };
  let submissionCount = 0;
  for (const item of items) {
    const inAll = !item.isSpam;
    const folders = {
      subAllPk: inAll,
      subUnreadPk: inAll && !item.read,
      subStarredPk: inAll && item.starred === true,
      subSpamPk: item.isSpam === true,
    };
    for (const [attribute, holds] of Object.entries(folders)) {
      expect(item[attribute], `${attribute} of ${item.id}`).toBe(
        holds ? `FORM#${formId}` : undefined,
      );
    }
    if (folders.subAllPk) expected.count_all += 1;
    if (folders.subUnreadPk) expected.count_unread += 1;
    if (folders.subStarredPk) expected.count_starred += 1;
    if (folders.subSpamPk) expected.count_spam += 1;
    if (!item.isSpam && !item.isTest) submissionCount += 1;
  }
  // The counters live on the form's shards: their sums are what readers see.
  const { counters } = await localStore();
  const read = await counters.readCounters(formId, { consistent: true });
  const actual = {
    count_all: read.folders.all,
    count_unread: read.folders.unread,
    count_starred: read.folders.starred,
    count_spam: read.folders.spam,
  };
  expect(actual).toEqual(expected);
  expect(read.counted).toBe(submissionCount);
}
