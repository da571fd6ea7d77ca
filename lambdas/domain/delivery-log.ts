import { ServiceError } from './errors.ts';
import type { IntegrationKind } from './integrations.ts';
import type { CancelReason, DeliveryStatus } from './webhook-delivery.ts';

/**
 * The delivery log of a form (docs/delivery.md#delivery-log): one delivery
 * per submission and target (the webhook, or one integration:
 * docs/integrations.md#deliveries), identified by the submission's id, with
 * every attempt made. Status values (docs/delivery.md#delivery-statuses):
 * `pending` (queued, not tried yet), `retrying` (an attempt failed in a way
 * worth retrying; the next one is scheduled), and three final ones:
 * `delivered` (a 2xx), `failed` (not retried: a 3xx or 4xx, a refused
 * address, or the retry window ran out) and `cancelled` (nothing was sent
 * when its turn came: `cancelReason` says why). Every message of a delivery
 * ends in one of the final three, so no open status outlives the message
 * that would end it.
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

/** What a delivery goes to: the form's webhook, or one of its integrations. */
export type DeliveryTarget = 'webhook' | IntegrationKind;

/**
 * What a delivery announces (docs/delivery.md#files-scanned): a stored submission, or
 * that its files have their malware scan's verdicts (docs/delivery.md#files-scanned).
 */
export const DELIVERY_EVENTS = ['submission.created', 'submission.files_scanned'] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

/**
 * A delivery's id: the submission's for `submission.created` (deliveries
 * stored before events were told apart included), and for
 * `submission.files_scanned` the same UUID with version 8 in place of 7, so
 * it is a UUID of its own that sorts right after its submission's, found
 * from the submission alone, and its `webhook-id` differs from the first
 * event's (receivers de-duplicate by it).
 */
export function deliveryIdOf(submissionId: string, event: DeliveryEvent): string {
  if (event === 'submission.created') return submissionId;
  return `${submissionId.slice(0, 14)}8${submissionId.slice(15)}`;
}

export interface Delivery {
  /** The submission's id: one delivery per submission (and target). */
  deliveryId: string;
  formId: string;
  submissionId: string;
  /** The integration it goes to; absent for the webhook (deliveries stored before integrations). */
  channel?: IntegrationKind;
  /** What it announces; absent for `submission.created`. */
  event?: Exclude<DeliveryEvent, 'submission.created'>;
  /** `webhook-id` of every attempt, so receivers can de-duplicate. */
  webhookId: string;
  status: DeliveryStatus;
  /** Why it was cancelled, while `cancelled`. */
  cancelReason?: CancelReason;
  /**
   * When the connection the delivery is for was made (the webhook's
   * `createdAt`, an integration's `connectedAt`): a disconnect ends it, and
   * one connected since is another connection. Absent on webhook deliveries
   * stored before connections were told apart (any connection).
   */
  webhookConnectedAt?: string;
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
  /** The integration it goes to; undefined for the webhook. */
  channel?: IntegrationKind | undefined;
  /** What it announces (default `submission.created`). */
  event?: DeliveryEvent;
  webhookId: string;
  /** The connection it is for (the webhook's `createdAt`), when known. */
  webhookConnectedAt: string | undefined;
  now: Date;
}): Delivery {
  const at = input.now.toISOString();
  const event = input.event ?? 'submission.created';
  return {
    deliveryId: deliveryIdOf(input.submissionId, event),
    formId: input.formId,
    submissionId: input.submissionId,
    ...(input.channel ? { channel: input.channel } : {}),
    ...(event === 'submission.created' ? {} : { event }),
    webhookId: input.webhookId,
    status: 'pending',
    ...(input.webhookConnectedAt ? { webhookConnectedAt: input.webhookConnectedAt } : {}),
    attempts: [],
    createdAt: at,
    updatedAt: at,
  };
}

/** The delivery after one more attempt: its outcome becomes the delivery's status. */
export function withAttempt(delivery: Delivery, attempt: DeliveryAttempt): Delivery {
  const { cancelReason: _ended, ...open } = delivery;
  return {
    ...open,
    status: attempt.outcome,
    attempts: [...delivery.attempts, attempt].slice(-KEPT_ATTEMPTS),
    updatedAt: attempt.at,
  };
}

/**
 * What to send the delivery with, or why it cannot be sent now: checked
 * when its message comes, as things are then (messages carry ids only).
 */
export function sendableOrCancelled<S, T>(input: {
  delivery: Pick<Delivery, 'webhookConnectedAt'>;
  /** The submission now, unless deleted. */
  submission: S | undefined;
  /** What it goes to now (the form's webhook, or the integration), if connected. */
  target: T | undefined;
  /** When that connection was made (the webhook's `createdAt`, an integration's `connectedAt`). */
  connectedAt: (target: T) => string;
  /** The reason when it is not connected: `webhook_removed` or `integration_removed`. */
  removed: Extract<CancelReason, 'webhook_removed' | 'integration_removed'>;
  pro: boolean;
  /**
   * Whether the submission is spam now, for a target that never gets spam
   * (Slack and Discord: docs/integrations.md#slack-and-discord): one moved
   * to spam after it was stored and queued is not sent.
   */
  spamNow?: (submission: S) => boolean;
}): { submission: S; target: T } | { cancel: CancelReason } {
  const { delivery, submission, target } = input;
  if (submission === undefined) return { cancel: 'submission_deleted' };
  if (input.spamNow?.(submission)) return { cancel: 'submission_spam' };
  if (target === undefined) return { cancel: input.removed };
  if (delivery.webhookConnectedAt && delivery.webhookConnectedAt !== input.connectedAt(target)) {
    return { cancel: input.removed };
  }
  if (!input.pro) return { cancel: 'plan_not_pro' };
  return { submission, target };
}

/** The delivery ended without an attempt: final, its attempts kept. */
export function cancelledDelivery(delivery: Delivery, reason: CancelReason, now: Date): Delivery {
  return { ...delivery, status: 'cancelled', cancelReason: reason, updatedAt: now.toISOString() };
}

/** How one received queue message stands, as far as numbering its attempt goes. */
export interface ReceivedMessage {
  /** SQS's ApproximateReceiveCount: 1 on a message's first receive. */
  receiveCount: number;
  /**
   * Set on a message the worker moved to the dead-letter queue: the `at` of
   * the attempt after which it gave up. A redrive copies it back with the
   * body, so the message says which failure it is the redrive of.
   */
  deadLetteredAfter?: string;
  /**
   * The message is a copy the worker put back for a slow receiver
   * (docs/delivery.md#a-slow-receiver): its first receive goes on with the
   * sending its original was part of.
   */
  putBack?: boolean;
}

/**
 * The number of the attempt a received message makes, or undefined when it
 * sends nothing. Counted from what was attempted (the stored attempts of the
 * current sending), not from receives: a receive that sent nothing (a
 * throttled invocation, a worker that timed out or crashed before sending)
 * costs no retry and leaves no gap in the numbers.
 *
 * - delivered: never sent again.
 * - a message's first receive starts a sending (1): queued by the fan-out,
 *   by the retry route, or moved back from the dead-letter queue; not a
 *   copy put back for a slow receiver, which goes on as below.
 * - pending: its first receive sent nothing, so this is still attempt 1.
 * - retrying: one past the last stored attempt.
 * - failed: a message still around after its delivery gave up sends nothing
 *   (a duplicate, or one whose deletion failed), unless it is the redrive of
 *   exactly this failure whose first receive was lost: then it starts anew.
 *   The receive count alone cannot tell these apart, `deadLetteredAfter` can.
 * - cancelled: a message still around after the cancellation sends nothing
 *   (the retry route requeues a cancelled delivery as pending first).
 */
export function attemptNumber(delivery: Delivery, message: ReceivedMessage): number | undefined {
  if (delivery.status === 'delivered') return undefined;
  if (message.receiveCount <= 1 && !message.putBack) return 1;
  const last = delivery.attempts.at(-1);
  switch (delivery.status) {
    case 'pending':
      return 1;
    case 'retrying':
      return (last?.number ?? 0) + 1;
    case 'failed':
      return last !== undefined && message.deadLetteredAfter === last.at ? 1 : undefined;
    case 'cancelled':
      return undefined;
  }
}

/**
 * Refuses to send again a delivery that is open or delivered (409
 * `delivery_not_failed`), or whose submission was deleted (409
 * `delivery_not_retryable`: there is nothing left to send).
 */
export function assertRetryable(delivery: Delivery): void {
  if (delivery.status === 'cancelled' && delivery.cancelReason === 'submission_deleted') {
    throw new ServiceError(
      'delivery_not_retryable',
      'The submission was deleted; there is nothing to send',
    );
  }
  if (delivery.status !== 'failed' && delivery.status !== 'cancelled') {
    throw new ServiceError(
      'delivery_not_failed',
      `The delivery is ${delivery.status}; only a failed or cancelled one is sent again`,
    );
  }
}

/**
 * A failed or cancelled delivery sent again by hand: pending, for the
 * webhook (or integration) connected now, its attempts kept.
 */
export function requeued(delivery: Delivery, webhookConnectedAt: string, now: Date): Delivery {
  const { cancelReason: _ended, ...rest } = delivery;
  return { ...rest, status: 'pending', webhookConnectedAt, updatedAt: now.toISOString() };
}

/** The queue message that sends a delivery (again): its submission, target and event. */
export function deliveryJob(delivery: Delivery): {
  formId: string;
  submissionId: string;
  channel?: IntegrationKind;
  event?: Exclude<DeliveryEvent, 'submission.created'>;
} {
  return {
    formId: delivery.formId,
    submissionId: delivery.submissionId,
    ...(delivery.channel ? { channel: delivery.channel } : {}),
    ...(delivery.event ? { event: delivery.event } : {}),
  };
}

/** A delivery as the API shows it. */
export function toDeliveryView(delivery: Delivery) {
  const { deliveryId, submissionId, webhookId, status, attempts, createdAt, updatedAt } = delivery;
  const last = attempts.at(-1);
  return {
    deliveryId,
    submissionId,
    event: delivery.event ?? ('submission.created' as DeliveryEvent),
    webhookId,
    status,
    cancelReason: status === 'cancelled' ? (delivery.cancelReason ?? null) : null,
    attemptCount: attempts.length,
    nextAttemptAt: status === 'retrying' ? (last?.nextAttemptAt ?? null) : null,
    attempts,
    createdAt,
    updatedAt,
  };
}
