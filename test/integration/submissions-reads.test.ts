import { beforeAll, describe, expect, it } from 'vitest';
import { meterDynamoDb } from '#test/support/dynamodb-meter.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

/**
 * The list's reads, run in this process against the local table with a meter
 * on the service's DynamoDB client: every page and `around` comes from
 * Query, Get and BatchGet on the folder indexes (never a Scan), and the cost
 * of a page does not grow past the middle of the folder.
 */
const TOTAL = 1_000;

describe('submission list reads', () => {
  let form: TestForm;
  let newestFirst: string[];
  let reads: typeof import('#store/folder-reads.ts');
  let meter: ReturnType<typeof meterDynamoDb>;

  beforeAll(async () => {
    await localStore();
    // Notifications off: seeding must not queue an email per seeded submission.
    form = await newForm('pro', { notifyEnabled: false });
    newestFirst = (await seedSubmissions({ formId: form.id, teamId: form.teamId, count: TOTAL }))
      .ids;
    reads = await import('#store/folder-reads.ts');
    const { dynamodb } = await import('#store/client.ts');
    meter = meterDynamoDb(dynamodb);
  });

  const folders = { all: TOTAL, unread: TOTAL, starred: 0, spam: 0, pending: 0 };
  const list = (query: { page?: number; pageSize?: number; around?: string }) => {
    meter.reset();
    return reads.readSubmissionList(form.id, folders, {
      filter: 'all',
      page: query.page ?? 1,
      pageSize: query.pageSize ?? 15,
      around: query.around,
    });
  };

  it('page 1 is one keys Query and one BatchGet', async () => {
    const page = await list({ page: 1 });
    expect(page.items.map((s) => s.id)).toEqual(newestFirst.slice(0, 15));
    expect(meter.meter.calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
  });

  it('a middle page counts past the keys before it, then reads one page', async () => {
    const page = await list({ page: 30, pageSize: 15 });
    expect(page.page).toBe(30);
    expect(page.items.map((s) => s.id)).toEqual(newestFirst.slice(435, 450));
    expect(meter.meter.calls).toEqual(['QueryCommand', 'QueryCommand', 'BatchGetItemCommand']);
  });

  it('the last pages are counted from the oldest end, and come out newest first', async () => {
    const last = await list({ page: 67, pageSize: 15 });
    expect(last).toMatchObject({ page: 67, pageCount: 67, total: TOTAL });
    expect(last.items.map((s) => s.id)).toEqual(newestFirst.slice(990));
    expect(meter.meter.calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    const nearEnd = await list({ page: 60, pageSize: 15 });
    expect(nearEnd.items.map((s) => s.id)).toEqual(newestFirst.slice(885, 900));
    expect(meter.meter.calls).toHaveLength(3);
  });

  it('around finds the page from whichever side of the submission is shorter', async () => {
    for (const position of [0, 14, 15, 499, 980, 999]) {
      const page = await list({ around: newestFirst[position], pageSize: 15 });
      expect(page.page, `position ${position}`).toBe(Math.floor(position / 15) + 1);
      expect(page.items.map((s) => s.id)).toContain(newestFirst[position]);
      expect(meter.meter.calls).not.toContain('ScanCommand');
    }
  });

  it('never scans, whatever the query', async () => {
    const all: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const result = await list({ page, pageSize: 100 });
      all.push(...result.items.map((s) => s.id));
      expect(meter.meter.calls.every((c) => /^(Query|BatchGetItem|GetItem)Command$/.test(c))).toBe(
        true,
      );
    }
    expect(all).toEqual(newestFirst);
  });
});
