import type { DeliveryStatus } from './webhook-delivery.ts';

/**
 * The webhook delivery log of a form (DESIGN §4): one delivery per
 * submission, identified by the submission's id, with every attempt made.
 * Status values (SPEC leaves them open): `pending` (queued, not tried yet),
 * `retrying` (an attempt failed in a way worth retrying; the next one is
 * scheduled), `delivered` (a 2xx), `failed` (not retried: a 3xx or 4xx, a
 * refused address, or the retry window ran out).
 */

export interface DeliveryAttempt {
  /** 1 for the first attempt of this sending; a manual retry starts again at 1. */
  number: number;
  at: string;
  outcome: 'delivered' | 'retrying' | 'failed';
  /** The receiver's HTTP status, when it answered. */
  responseStatus: number | null;
  durationMs: number;
  /** The first 1 KB of the receiver's answer, as text. */
  responseBody: string | null;
  /** Why the attempt failed when no status tells it (timeout, network, refused address). */
  error: string | null;
  /** When the next attempt is due, while retrying. */
  nextAttemptAt: string | null;
}

export interface Delivery {
  /** The submission's id: one delivery per submission. */
  deliveryId: string;
  formId: string;
  submissionId: string;
  /** `webhook-id` of every attempt, so receivers can de-duplicate. */
  webhookId: string;
  status: DeliveryStatus;
  /** Newest last; the last KEPT_ATTEMPTS only. */
  attempts: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
}

/** Enough for a full retry schedule and a few manual retries; bounds the item's size. */
export const KEPT_ATTEMPTS = 30;

/** Deliveries are kept 30 days after their last change. */
export const DELIVERY_RETENTION_SECONDS = 30 * 86_400;

export function pendingDelivery(input: {
  formId: string;
  submissionId: string;
  webhookId: string;
  now: Date;
}): Delivery {
  const at = input.now.toISOString();
  return {
    deliveryId: input.submissionId,
    formId: input.formId,
    submissionId: input.submissionId,
    webhookId: input.webhookId,
    status: 'pending',
    attempts: [],
    createdAt: at,
    updatedAt: at,
  };
}

/** The delivery after one more attempt: its outcome becomes the delivery's status. */
export function withAttempt(delivery: Delivery, attempt: DeliveryAttempt): Delivery {
  return {
    ...delivery,
    status: attempt.outcome,
    attempts: [...delivery.attempts, attempt].slice(-KEPT_ATTEMPTS),
    updatedAt: attempt.at,
  };
}

/** A failed delivery sent again by hand: pending, its attempts kept. */
export function requeued(delivery: Delivery, now: Date): Delivery {
  return { ...delivery, status: 'pending', updatedAt: now.toISOString() };
}

/** A delivery as the API shows it. */
export function toDeliveryView(delivery: Delivery) {
  const { deliveryId, submissionId, webhookId, status, attempts, createdAt, updatedAt } = delivery;
  const last = attempts.at(-1);
  return {
    deliveryId,
    submissionId,
    webhookId,
    status,
    attemptCount: attempts.length,
    nextAttemptAt: status === 'retrying' ? (last?.nextAttemptAt ?? null) : null,
    attempts,
    createdAt,
    updatedAt,
  };
}
