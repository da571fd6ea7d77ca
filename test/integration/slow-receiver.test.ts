import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectWebhook,
  DELIVERY_WAIT_MS,
  deliveriesOf,
  eventually,
  newReceiver,
} from '#test/support/delivery.ts';
import { newForm } from '#test/support/forms.ts';
import { until } from '#test/support/poll.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { ReceivedHook, WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_RECEIVER_TIMEOUT_MS } from './stack-settings.ts';

// A slow receiver gets one delivery at a time (docs/delivery.md#a-slow-receiver). The test
// stack cuts a hang off after 3 s and holds a slow receiver that long.
vi.setConfig({ testTimeout: 180_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver() {
  const started = await newReceiver();
  receivers.push(started);
  return started;
}

/** The most requests open at once among those that arrived from `from` on. */
function peakOpen(hooks: readonly ReceivedHook[], from: number): number {
  const edges = hooks
    .filter((hook) => hook.at >= from)
    .flatMap((hook) => [
      { at: hook.at, step: 1 },
      { at: hook.endedAt ?? Number.POSITIVE_INFINITY, step: -1 },
    ])
    // An end and a start at the same millisecond: the end first.
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let peak = 0;
  for (const edge of edges) {
    open += edge.step;
    peak = Math.max(peak, open);
  }
  return peak;
}

const SLOW_POSTS = 12;

describe('a receiver that hangs', () => {
  it('after its first timeout gets one delivery at a time; the others are put back using no attempt, another form’s webhooks go through, and once it answers each arrives once (or had its retry window run out while it hung)', async () => {
    const hanging = await receiver();
    hanging.script([], 'hang');
    const healthy = await receiver();
    const slow = await newForm('pro');
    await connectWebhook(slow, hanging.url);
    const other = await newForm('pro');
    await connectWebhook(other, healthy.url);

    const posts = await Promise.all(
      Array.from({ length: SLOW_POSTS }, (_, n) =>
        submit(slow.key, { json: { n }, from: freshVisitor() }),
      ),
    );
    expect(posts.map((post) => post.status)).toEqual(Array(SLOW_POSTS).fill(200));

    // The first wave: deliveries sent before any timed out. Then the first timeout.
    const ended = await until(
      () => hanging.received.filter((hook) => hook.endedAt !== undefined),
      (hooks) => hooks.length > 0,
      { timeoutMs: DELIVERY_WAIT_MS, intervalMs: 50, what: 'the first timeout' },
    );
    const first = ended.reduce((a, b) => (b.endedAt! < a.endedAt! ? b : a));
    const firstTimeout = first.endedAt!;
    // Cut off by the sender's timeout (its clock starts before the request reaches us).
    expect(firstTimeout - first.at).toBeGreaterThanOrEqual(TEST_RECEIVER_TIMEOUT_MS - 1000);

    // Meanwhile another form's webhooks go through.
    const otherPosts = await Promise.all(
      Array.from({ length: 3 }, (_, n) => submit(other.key, { json: { n }, from: freshVisitor() })),
    );
    expect(otherPosts.map((post) => post.status)).toEqual([200, 200, 200]);
    await healthy.waitFor(3, DELIVERY_WAIT_MS);

    // The slow receiver's next turn after the first wave, cut off by the timeout in its turn.
    const settle = firstTimeout + 1000;
    await until(
      () => hanging.received.filter((hook) => hook.at >= settle),
      (hooks) => hooks.length >= 1 && hooks.every((hook) => hook.endedAt !== undefined),
      { timeoutMs: 60_000, intervalMs: 100, what: 'a turn after the first wave' },
    );
    // Without the hold, each of the first wave's deliveries would have been retried 1 s after
    // its timeout, all at once again: here one request, alone, until the next turn.
    const afterWave = hanging.received.filter((hook) => hook.at >= settle);
    expect(afterWave).toHaveLength(1);
    expect(peakOpen(hanging.received, settle)).toBe(1);

    // It answers again: every delivery ends. One whose retry window (the schedule's sum × 1.2
    // from its first attempt: 10 s on the test stack, about two hours deployed) ran out while
    // it hung is failed, each of its attempts a timeout; every other one arrives, once.
    hanging.script([], { status: 204 });
    const switchedAt = Date.now();
    const deliveries = await eventually(
      () => deliveriesOf(slow),
      (list) =>
        list.length === SLOW_POSTS &&
        list.every((delivery) => delivery.status === 'delivered' || delivery.status === 'failed'),
      90_000,
    );
    expect(deliveries).toHaveLength(SLOW_POSTS);
    const undelivered = deliveries.filter((delivery) => delivery.status !== 'delivered');
    for (const delivery of undelivered) {
      expect(
        delivery.attempts.map((attempt) => [
          attempt.error?.split(':')[0],
          attempt.at < new Date(switchedAt).toISOString(),
        ]),
        `${delivery.status}: every attempt a timeout made while the receiver hung`,
      ).toEqual(delivery.attempts.map(() => ['timeout', true]));
      expect(delivery.status).toBe('failed');
    }
    // The turns taken while it hung are the only ones that can run out: most arrive.
    expect(undelivered.length).toBeLessThanOrEqual(2);
    // Attempts numbered without a gap: a put-back copy went on with its delivery.
    for (const delivery of deliveries) {
      expect(delivery.attempts.map((attempt) => attempt.number).sort((a, b) => a - b)).toEqual(
        delivery.attempts.map((_, i) => i + 1),
      );
    }
    // Every request the receiver got is one recorded attempt: the put-backs used none.
    const attempts = deliveries.reduce((sum, delivery) => sum + delivery.attempts.length, 0);
    expect(attempts).toBe(hanging.received.length);
    // Answered once per submission.
    const answered = hanging.received
      .filter((hook) => hook.at >= switchedAt)
      .map((hook) => hook.headers['webhook-id']);
    expect(new Set(answered).size).toBe(answered.length);
  });
});
