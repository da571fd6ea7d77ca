import type { CancelReason, DeliveryStatus } from '#domain/webhook-delivery.ts';
import { WEBHOOK_EVENT_TYPE, type WebhookPayload, webhookFields } from '#domain/webhook-payload.ts';
import type { Delivery, Submission } from './model.ts';

/**
 * The webhook screen's pure parts (docs/dashboard.md#screens): a delivery's
 * state and each attempt in words, and the body it was sent with. Records
 * over the domain's statuses and reasons, so a new one without words fails
 * the typecheck.
 */

export type Attempt = Delivery['attempts'][number];

export const STATUS_WORDS: Record<DeliveryStatus, string> = {
  pending: 'Waiting to be sent',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const CANCEL_WORDS: Record<CancelReason, string> = {
  webhook_removed: 'the webhook was disconnected',
  integration_removed: 'the integration was disconnected',
  plan_not_pro: 'the team left the Pro plan',
  submission_deleted: 'the submission was deleted',
  submission_spam: 'the submission was moved to spam',
};

/** Why an attempt got no answer (docs/delivery.md#retries), by the code the log starts its error with. */
const ERROR_WORDS: Record<string, string> = {
  timeout: 'No answer in time',
  network: 'Could not connect',
  refused_address: 'Not sent: the address is private or local',
  invalid_url: 'Not sent: the address is not a valid URL',
};

/** The delivery's state as a sentence start: "Cancelled: the webhook was disconnected". */
export function statusWords(delivery: Pick<Delivery, 'status' | 'cancelReason'>): string {
  const words = STATUS_WORDS[delivery.status];
  return delivery.cancelReason ? `${words}: ${CANCEL_WORDS[delivery.cancelReason]}` : words;
}

/** What an HTTP status means for a delivery (docs/delivery.md#retries). */
export function statusMeaning(status: number): string {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 408) return 'timed out, tried again';
  if (status === 429) return 'too many requests, tried again';
  if (status >= 300 && status < 400) return 'a redirect, not followed';
  if (status >= 500) return 'a server error, tried again';
  return 'refused';
}

/** The attempt's error split into its words and the detail after them (`timeout: no response…`). */
export function attemptError(error: string): { words: string; detail: string } {
  const colon = error.indexOf(':');
  const code = colon > 0 ? error.slice(0, colon) : error;
  const known = ERROR_WORDS[code];
  if (!known) return { words: 'No answer', detail: error };
  return { words: known, detail: colon > 0 ? error.slice(colon + 1).trim() : '' };
}

const milliseconds = (ms: number) => `${Math.round(ms).toLocaleString()} ms`;

/** One line for an attempt: "500, a server error, tried again · 120 ms". */
export function answerWords(attempt: Pick<Attempt, 'responseStatus' | 'error' | 'durationMs'>) {
  const what =
    attempt.responseStatus !== null
      ? `${attempt.responseStatus}, ${statusMeaning(attempt.responseStatus)}`
      : attempt.error
        ? attemptError(attempt.error).words
        : 'No answer';
  return `${what} · ${milliseconds(attempt.durationMs)}`;
}

/**
 * The body of a delivery, pretty-printed: the service keeps no copy of the
 * bytes it sent, so it is rebuilt from the submission as stored now, the
 * way the worker builds it (lambdas/domain/webhook-payload.ts), with
 * `timestamp` the attempt's time (docs/delivery.md#webhook-requests).
 */
export function payloadText(
  submission: Pick<Submission, 'id' | 'formId' | 'createdAt' | 'isTest' | 'isSpam' | 'data'>,
  sentAt: string,
): string {
  const payload: WebhookPayload = {
    type: WEBHOOK_EVENT_TYPE,
    timestamp: sentAt,
    data: {
      formId: submission.formId,
      submissionId: submission.id,
      submittedAt: submission.createdAt,
      test: submission.isTest,
      spam: submission.isSpam,
      fields: webhookFields(submission.data),
    },
  };
  return JSON.stringify(payload, null, 2);
}
