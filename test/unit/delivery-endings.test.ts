import { describe, expect, it } from 'vitest';
import {
  assertRetryable,
  attemptNumber,
  cancelledDelivery,
  type Delivery,
  type DeliveryAttempt,
  pendingDelivery,
  requeued,
  sendableOrCancelled,
  toDeliveryView,
  withAttempt,
} from '#domain/delivery-log.ts';
import type { ServiceError } from '#domain/errors.ts';

const start = new Date('2026-01-01T00:00:00.000Z');
const later = new Date('2026-01-01T00:05:00.000Z');
const connectedAt = '2025-12-31T00:00:00.000Z';
const webhook = { createdAt: connectedAt, url: 'https://example.com/hook' };
type Hook = typeof webhook;
const submission = { id: 's' };
const fresh = pendingDelivery({
  formId: 'f',
  submissionId: 's',
  webhookId: 'msg_s',
  webhookConnectedAt: connectedAt,
  now: start,
});
const retrying = withAttempt(fresh, {
  number: 1,
  at: start.toISOString(),
  outcome: 'retrying',
  responseStatus: 500,
  durationMs: 3,
  responseBody: null,
  error: null,
  nextAttemptAt: later.toISOString(),
} satisfies DeliveryAttempt);

function refusal(delivery: Delivery): { status: number; code: string } | undefined {
  try {
    assertRetryable(delivery);
    return undefined;
  } catch (error) {
    const { status, code } = error as ServiceError;
    return { status, code };
  }
}

describe('a delivery is sent only to the connection, team and submission it was queued for', () => {
  const check = (over: Partial<Parameters<typeof sendableOrCancelled<unknown, Hook>>[0]>) =>
    sendableOrCancelled<unknown, Hook>({
      delivery: fresh,
      submission,
      target: webhook,
      connectedAt: (target) => target.createdAt,
      removed: 'webhook_removed',
      pro: true,
      ...over,
    });

  it('sends with the submission and webhook as they are now', () => {
    expect(check({})).toEqual({ submission, target: webhook });
  });

  it('a deleted submission, a disconnected webhook, a new connection, a team off Pro: cancelled, each with its reason', () => {
    expect(check({ submission: undefined })).toEqual({ cancel: 'submission_deleted' });
    expect(check({ target: undefined })).toEqual({ cancel: 'webhook_removed' });
    expect(check({ target: { ...webhook, createdAt: later.toISOString() } })).toEqual({
      cancel: 'webhook_removed',
    });
    expect(check({ pro: false })).toEqual({ cancel: 'plan_not_pro' });
  });

  it('the submission decides first, then the connection, then the plan', () => {
    expect(check({ submission: undefined, target: undefined, pro: false })).toEqual({
      cancel: 'submission_deleted',
    });
    expect(check({ target: undefined, pro: false })).toEqual({ cancel: 'webhook_removed' });
  });

  it('a delivery stored before connections were told apart goes to whatever webhook is connected', () => {
    const { webhookConnectedAt: _old, ...legacy } = fresh;
    expect(
      sendableOrCancelled({
        delivery: legacy as Delivery,
        submission,
        target: { createdAt: later.toISOString() },
        connectedAt: (target) => target.createdAt,
        removed: 'webhook_removed',
        pro: true,
      }),
    ).toEqual({ submission, target: { createdAt: later.toISOString() } });
  });
});

describe('a cancelled delivery is final and says why', () => {
  const ended = cancelledDelivery(retrying, 'webhook_removed', later);

  it('keeps its attempts, claims no next attempt, and shows its reason', () => {
    expect(ended.status).toBe('cancelled');
    expect(ended.attempts).toEqual(retrying.attempts);
    const view = toDeliveryView(ended);
    expect(view).toMatchObject({
      status: 'cancelled',
      cancelReason: 'webhook_removed',
      nextAttemptAt: null,
      attemptCount: 1,
    });
    expect(toDeliveryView(retrying)).toMatchObject({
      cancelReason: null,
      nextAttemptAt: later.toISOString(),
    });
  });

  it('a message still going round after the cancellation sends nothing', () => {
    expect(attemptNumber(ended, { receiveCount: 2 })).toBeUndefined();
    expect(attemptNumber(ended, { receiveCount: 7 })).toBeUndefined();
  });

  it('is sent again by hand (pending for the webhook connected now, the reason gone), unless its submission was deleted', () => {
    expect(refusal(ended)).toBeUndefined();
    expect(refusal(cancelledDelivery(retrying, 'plan_not_pro', later))).toBeUndefined();
    const again = requeued(ended, later.toISOString(), later);
    expect(again).toMatchObject({ status: 'pending', webhookConnectedAt: later.toISOString() });
    expect(again).not.toHaveProperty('cancelReason');
    expect(again.attempts).toEqual(retrying.attempts);
    expect(attemptNumber(again, { receiveCount: 1 })).toBe(1);
    expect(refusal(cancelledDelivery(retrying, 'submission_deleted', later))).toEqual({
      status: 409,
      code: 'delivery_not_retryable',
    });
  });

  it('an open or delivered delivery is not sent again by hand', () => {
    expect(refusal(fresh)).toEqual({ status: 409, code: 'delivery_not_failed' });
    expect(refusal(retrying)).toEqual({ status: 409, code: 'delivery_not_failed' });
    const delivered = withAttempt(retrying, {
      ...retrying.attempts[0]!,
      number: 2,
      outcome: 'delivered',
      responseStatus: 204,
      nextAttemptAt: null,
    });
    expect(refusal(delivered)).toEqual({ status: 409, code: 'delivery_not_failed' });
  });

  it('an attempt made after a manual retry drops the old reason', () => {
    const again = requeued(ended, connectedAt, later);
    const sent = withAttempt(again, {
      ...retrying.attempts[0]!,
      at: later.toISOString(),
      outcome: 'delivered',
      responseStatus: 200,
      nextAttemptAt: null,
    });
    expect(sent.status).toBe('delivered');
    expect(sent).not.toHaveProperty('cancelReason');
  });
});
