import { afterAll, describe, expect, it, vi } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';
import {
  connectWebhook,
  type DeliveryView,
  deliveriesOf,
  deliveryWhen,
  newReceiver,
} from '#test/support/delivery.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { eventually } from '#test/support/poll.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_WEBHOOK_RETRY_DELAYS } from './stack-settings.ts';

// Each path ends within seconds on the test stack's schedule; the waits leave room for the
// shared stream and queues under the full suite, not for a delivery that never ends.
vi.setConfig({ testTimeout: 90_000 });
const END_WAIT_MS = 40_000;

// The paths run at once: receivers close when all are done, not after each.
const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver(): Promise<WebhookReceiver> {
  const started = await newReceiver();
  receivers.push(started);
  return started;
}

/**
 * A Pro form whose webhook answers 500 asking for a few seconds' pause (a
 * Retry-After longer than the schedule's first delay), and one post to it,
 * seen `retrying`: the window in which the world changes under the delivery.
 * The pause (8 s, within the test stack's retry window of 10 s) is the time
 * a test has to change the world before the next attempt, however loaded the
 * machine.
 */
async function deliveryInRetry() {
  const hooks = await receiver();
  hooks.script([], { status: 500, headers: { 'retry-after': '8' } });
  const form = await newForm('pro');
  await connectWebhook(form, hooks.url);
  const post = await submit(form.key, { json: { a: 'ends somehow' }, from: freshVisitor() });
  const submissionId = post.body?.submissionId as string;
  const retrying = await deliveryWhen(form, submissionId, 'retrying', END_WAIT_MS);
  expect(retrying?.status, 'the first attempt is retried').toBe('retrying');
  expect(Date.parse(retrying!.nextAttemptAt!)).toBeGreaterThan(Date.now());
  return { hooks, form, submissionId };
}

const FINAL = ['delivered', 'failed', 'cancelled'];

/** The delivery once it reaches a final status (or as it stands when the wait ends). */
function ended(form: TestForm, submissionId: string): Promise<DeliveryView | undefined> {
  return eventually(
    async () => (await deliveriesOf(form)).find((d) => d.submissionId === submissionId),
    (found) => found !== undefined && FINAL.includes(found.status),
    { timeoutMs: END_WAIT_MS, intervalMs: 150 },
  );
}

function retry(form: TestForm, submissionId: string) {
  return api('POST', `/v1/forms/${form.id}/webhook/deliveries/${submissionId}/retry`, {
    key: form.apiKey,
  });
}

/** A final status claims no attempt to come. */
function expectFinal(
  delivery: DeliveryView | undefined,
  status: string,
  cancelReason: string | null,
) {
  expect(delivery).toMatchObject({ status, cancelReason, nextAttemptAt: null });
}

describe('every delivery ends in a final status that says why', () => {
  it.concurrent('a 2xx: delivered', async () => {
    const hooks = await receiver();
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'fine' }, from: freshVisitor() });
    const delivery = await ended(form, post.body?.submissionId as string);
    expectFinal(delivery, 'delivered', null);
    expect(hooks.received).toHaveLength(1);
  });

  it.concurrent('a response that is not retried (400): failed', async () => {
    const hooks = await receiver();
    hooks.script([], { status: 400 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'refused' }, from: freshVisitor() });
    const delivery = await ended(form, post.body?.submissionId as string);
    expectFinal(delivery, 'failed', null);
    expect(delivery?.attempts.map((a) => a.outcome)).toEqual(['failed']);
  });

  it.concurrent('the retry window spent: failed after the whole schedule', async () => {
    const hooks = await receiver();
    hooks.script([], { status: 503 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'never well' }, from: freshVisitor() });
    const delivery = await ended(form, post.body?.submissionId as string);
    expectFinal(delivery, 'failed', null);
    expect(delivery?.attempts).toHaveLength(TEST_WEBHOOK_RETRY_DELAYS.length + 1);
  });

  it.concurrent('the webhook disconnected during the retries: cancelled (webhook_removed); once connected again, the retry route sends it', async () => {
    const { hooks, form, submissionId } = await deliveryInRetry();
    expect((await api('DELETE', `/v1/forms/${form.id}/webhook`, { key: form.apiKey })).status).toBe(
      200,
    );
    const cancelled = await ended(form, submissionId);
    expectFinal(cancelled, 'cancelled', 'webhook_removed');
    expect(hooks.received).toHaveLength(1);
    const listed = await deliveriesOf(form, '?status=cancelled');
    expect(listed.map((d) => d.submissionId)).toEqual([submissionId]);

    expect((await retry(form, submissionId)).status, 'no webhook to send to').toBe(404);
    const healthy = await receiver();
    await connectWebhook(form, healthy.url);
    const again = await retry(form, submissionId);
    expect(again.status, again.text).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', cancelReason: null });
    const delivered = await ended(form, submissionId);
    expectFinal(delivered, 'delivered', null);
    expect(healthy.received).toHaveLength(1);
    expect(healthy.received[0]?.headers['webhook-id']).toBe(`msg_${submissionId}`);
  });

  it.concurrent('the webhook disconnected and connected again before the next attempt: the old connection’s delivery is cancelled, the new webhook gets nothing unasked', async () => {
    const { hooks, form, submissionId } = await deliveryInRetry();
    await api('DELETE', `/v1/forms/${form.id}/webhook`, { key: form.apiKey });
    const next = await receiver();
    await connectWebhook(form, next.url);
    const cancelled = await ended(form, submissionId);
    expectFinal(cancelled, 'cancelled', 'webhook_removed');
    expect(hooks.received).toHaveLength(1);
    expect(next.received).toHaveLength(0);
    expect((await retry(form, submissionId)).status).toBe(202);
    expectFinal(await ended(form, submissionId), 'delivered', null);
    expect(next.received).toHaveLength(1);
  });

  it.concurrent('the team moved to Free during the retries: cancelled (plan_not_pro); retried once back on Pro', async () => {
    const { hooks, form, submissionId } = await deliveryInRetry();
    const toFree = await admin('team', 'plan', '--team', form.teamId, '--plan', 'free');
    expect(toFree.code, toFree.stderr).toBe(0);
    const cancelled = await ended(form, submissionId);
    expectFinal(cancelled, 'cancelled', 'plan_not_pro');
    expect(hooks.received).toHaveLength(1);

    const onFree = await retry(form, submissionId);
    expect(onFree.status).toBe(402);
    expect(onFree.body).toMatchObject({ error: 'plan_required' });
    await admin('team', 'plan', '--team', form.teamId, '--plan', 'pro');
    hooks.script([], { status: 204 });
    expect((await retry(form, submissionId)).status).toBe(202);
    expectFinal(await ended(form, submissionId), 'delivered', null);
  });

  it.concurrent('the submission deleted during the retries: cancelled (submission_deleted), and not retryable', async () => {
    const { hooks, form, submissionId } = await deliveryInRetry();
    const deleted = await api('DELETE', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [submissionId] } },
    });
    expect(deleted.body).toMatchObject({ count: 1 });
    const cancelled = await ended(form, submissionId);
    expectFinal(cancelled, 'cancelled', 'submission_deleted');
    expect(hooks.received).toHaveLength(1);
    const again = await retry(form, submissionId);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ok: false, error: 'delivery_not_retryable' });
  });
});
