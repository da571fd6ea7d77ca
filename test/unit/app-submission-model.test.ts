import { describe, expect, it } from 'vitest';
import type { Delivery } from '#app/model.ts';
import { deliveryWords, endedOnWords, type ListPage, neighbours } from '#app/submission-model.ts';

/** A folder of ids, newest first, listed `size` at a time as the API does. */
function folder(ids: string[], size: number): { list: ListPage; asked: unknown[] } {
  const asked: unknown[] = [];
  const pageCount = Math.max(1, Math.ceil(ids.length / size));
  const list: ListPage = async (query) => {
    asked.push(query);
    const at = query.around ? ids.indexOf(query.around) : -1;
    const page = at >= 0 ? Math.floor(at / size) + 1 : Math.min(query.page ?? 1, pageCount);
    const items = ids.slice((page - 1) * size, page * size).map((id) => ({ id }));
    return { items, page, pageCount } as Awaited<ReturnType<ListPage>>;
  };
  return { list, asked };
}

describe('the submission page’s neighbours', () => {
  it('inside a page: the ones beside it, from the one page read', async () => {
    const { list, asked } = folder(['a', 'b', 'c', 'd'], 3);
    expect(await neighbours('b', list)).toEqual({ previous: 'a', next: 'c', page: 1 });
    expect(asked).toEqual([{ around: 'b' }]);
  });

  it('at a page’s edge: the next page’s first, or the page before’s last', async () => {
    const { list } = folder(['a', 'b', 'c', 'd', 'e'], 2);
    expect(await neighbours('b', list)).toEqual({ previous: 'a', next: 'c', page: 1 });
    expect(await neighbours('c', list)).toEqual({ previous: 'b', next: 'd', page: 2 });
    expect(await neighbours('e', list)).toEqual({ previous: 'd', next: undefined, page: 3 });
  });

  it('no longer in the folder: no neighbours, the first page', async () => {
    const { list } = folder(['a'], 2);
    expect(await neighbours('gone', list)).toEqual({ page: 1 });
  });
});

const delivery = (more: Partial<Delivery>): Delivery =>
  ({
    deliveryId: 'd',
    submissionId: 'd',
    webhookId: 'msg_d',
    status: 'pending',
    cancelReason: null,
    attemptCount: 0,
    nextAttemptAt: null,
    attempts: [],
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    ...more,
  }) as Delivery;

const attempt = (responseStatus: number | null, error: string | null = null) => ({
  number: 1,
  at: '2026-11-26T10:00:01.000Z',
  outcome: 'failed' as const,
  responseStatus,
  durationMs: 12,
  responseBody: null,
  error,
  nextAttemptAt: null,
});

describe('a webhook delivery in words, no status names or codes', () => {
  it('delivered, retrying, failed, waiting and not sent', () => {
    expect(
      deliveryWords(delivery({ status: 'delivered', attemptCount: 1, attempts: [attempt(200)] })),
    ).toEqual({
      status: 'Delivered',
      detail: 'On the first attempt.',
    });
    expect(
      deliveryWords(
        delivery({
          status: 'retrying',
          attemptCount: 2,
          attempts: [attempt(null, 'timeout: 10 s')],
        }),
      ),
    ).toEqual({
      status: 'Retrying',
      detail:
        '2 attempts so far; on the last, it did not answer in time. It is tried again for about two hours.',
    });
    expect(
      deliveryWords(delivery({ status: 'failed', attemptCount: 1, attempts: [attempt(410)] })),
    ).toEqual({
      status: 'Failed',
      detail: '1 attempt; on the last, it answered 410. It is not tried again unless you retry it.',
    });
    expect(deliveryWords(delivery({})).status).toBe('Waiting to be sent');
    const cancelled = deliveryWords(
      delivery({ status: 'cancelled', cancelReason: 'plan_not_pro' }),
    );
    expect(cancelled).toEqual({
      status: 'Not sent',
      detail: 'Not sent because webhooks need the Pro plan.',
    });
    expect(JSON.stringify(cancelled)).not.toMatch(/_/);
  });
});

describe('the step a submission was sent from', () => {
  const pages = [
    { id: 'start', title: 'Your plan' },
    { id: 'team' },
    { id: 'contact', title: ' Contact ' },
  ];
  it('is said by its place and title for a form with steps, and not at all for one without', () => {
    expect(endedOnWords('contact', pages)).toBe('Step 3 of 3: Contact');
    expect(endedOnWords('team', pages)).toBe('Step 2 of 3');
    expect(endedOnWords(undefined, null)).toBeUndefined();
    expect(endedOnWords(undefined, [])).toBeUndefined();
  });
  it('a step taken out since, or a submission from before the steps, says so', () => {
    expect(endedOnWords('gone', pages)).toBe('A step no longer in the form (gone)');
    expect(endedOnWords('gone', null)).toBe('A step no longer in the form (gone)');
    expect(endedOnWords(undefined, pages)).toMatch(/^Not recorded/);
  });
});
