import { describe, expect, it } from 'vitest';
import {
  attemptNumber,
  type Delivery,
  type DeliveryAttempt,
  pendingDelivery,
  requeued,
  withAttempt,
} from '#domain/delivery-log.ts';

const start = new Date('2026-01-01T00:00:00.000Z');
const connectedAt = '2025-12-31T00:00:00.000Z';
const fresh = pendingDelivery({
  formId: 'f',
  submissionId: 's',
  webhookId: 'msg_s',
  webhookConnectedAt: connectedAt,
  now: start,
});

function attempt(number: number, outcome: DeliveryAttempt['outcome'], second: number) {
  return {
    number,
    at: new Date(start.getTime() + second * 1000).toISOString(),
    outcome,
    responseStatus: 503,
    durationMs: 5,
    responseBody: null,
    error: null,
    nextAttemptAt: null,
  } satisfies DeliveryAttempt;
}

function deliveryAfter(...attempts: DeliveryAttempt[]): Delivery {
  return attempts.reduce(withAttempt, fresh);
}

describe('attempt numbers come from what was attempted, not from SQS receives', () => {
  it('a first receive makes attempt 1; a first receive that sent nothing leaves it at 1', () => {
    expect(attemptNumber(fresh, { receiveCount: 1 })).toBe(1);
    expect(attemptNumber(fresh, { receiveCount: 2 })).toBe(1);
    expect(attemptNumber(fresh, { receiveCount: 6 })).toBe(1);
  });

  it('while retrying, the next attempt is one past the last stored, however many receives were lost', () => {
    const two = deliveryAfter(attempt(1, 'retrying', 0), attempt(2, 'retrying', 2));
    expect(attemptNumber(two, { receiveCount: 3 })).toBe(3);
    expect(attemptNumber(two, { receiveCount: 5 })).toBe(3);
  });

  it('a delivered delivery is never sent again, whatever the message', () => {
    const delivered = deliveryAfter(attempt(1, 'retrying', 0), attempt(2, 'delivered', 2));
    expect(attemptNumber(delivered, { receiveCount: 1 })).toBeUndefined();
    expect(attemptNumber(delivered, { receiveCount: 3 })).toBeUndefined();
    expect(
      attemptNumber(delivered, { receiveCount: 2, deadLetteredAfter: delivered.attempts[1]!.at }),
    ).toBeUndefined();
  });

  it('a retried delivery (pending again) starts at 1, also when that message’s first receive was lost', () => {
    const again = requeued(
      deliveryAfter(attempt(1, 'failed', 0)),
      connectedAt,
      new Date(start.getTime() + 60_000),
    );
    expect(attemptNumber(again, { receiveCount: 1 })).toBe(1);
    expect(attemptNumber(again, { receiveCount: 2 })).toBe(1);
  });

  describe('a failed delivery', () => {
    const gaveUp = deliveryAfter(attempt(1, 'retrying', 0), attempt(2, 'failed', 2));
    const failure = gaveUp.attempts.at(-1)!.at;

    it('is sent again by a fresh message (the retry route, a redrive): attempt 1', () => {
      expect(attemptNumber(gaveUp, { receiveCount: 1 })).toBe(1);
    });

    it('is sent again by the redrive of exactly this failure, even when its first receive was lost', () => {
      expect(attemptNumber(gaveUp, { receiveCount: 2, deadLetteredAfter: failure })).toBe(1);
      expect(attemptNumber(gaveUp, { receiveCount: 4, deadLetteredAfter: failure })).toBe(1);
    });

    it('a message still going round after it failed sends nothing (no marker, or an older failure’s)', () => {
      expect(attemptNumber(gaveUp, { receiveCount: 2 })).toBeUndefined();
      expect(
        attemptNumber(gaveUp, { receiveCount: 2, deadLetteredAfter: start.toISOString() }),
      ).toBeUndefined();
    });
  });

  it('a copy put back for a slow receiver goes on with its delivery: its first receive is no new sending', () => {
    const two = deliveryAfter(attempt(1, 'retrying', 0), attempt(2, 'retrying', 2));
    expect(attemptNumber(two, { receiveCount: 1, putBack: true })).toBe(3);
    expect(attemptNumber(fresh, { receiveCount: 1, putBack: true })).toBe(1);
    const gaveUp = deliveryAfter(attempt(1, 'failed', 0));
    expect(attemptNumber(gaveUp, { receiveCount: 1, putBack: true })).toBeUndefined();
    expect(
      attemptNumber(gaveUp, {
        receiveCount: 1,
        putBack: true,
        deadLetteredAfter: gaveUp.attempts[0]!.at,
      }),
    ).toBe(1);
  });
});
