import { SQSClient } from '@aws-sdk/client-sqs';
import { expect, inject } from 'vitest';
import { api, stack } from './api.ts';
import type { TestForm } from './forms.ts';
import { eventually as poll } from './poll.ts';
import { messagesIn } from './queues.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * How long a test waits for a delivery: the stream and the queues are shared
 * by every test file of the run, so under the full suite's load an email or
 * a webhook may queue behind others. Waits end as soon as the thing arrives.
 */
export const DELIVERY_WAIT_MS = 60_000;

/** One email as the SES emulator keeps it (GET /store). */
export interface SentEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  headers?: { name: string; value: string }[];
}

/**
 * The emulator's emails since this test file started (its `since`, in epoch
 * seconds; a second of margin): the store holds every email of the run, and a
 * file's addresses are its own, so the whole store (megabytes, late in a run)
 * need not be read at every poll.
 */
const FILE_STARTED = Math.floor(Date.now() / 1000) - 1;
const storeUrl = () => new URL(`/store?since=${FILE_STARTED}`, stack().mailUrl);

/** Every email the local SES emulator holds for `to`. */
export async function emailsTo(to: string): Promise<SentEmail[]> {
  const response = await fetch(storeUrl());
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails.filter((email) => email.destination.to.includes(to));
}

/** Every email the local SES emulator holds that `address` receives, in To, Cc or Bcc. */
export async function emailsReaching(address: string): Promise<SentEmail[]> {
  const response = await fetch(storeUrl());
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails.filter(({ destination }) =>
    [...destination.to, ...destination.cc, ...destination.bcc].includes(address),
  );
}

/** The tests' one poll (`#test/support/poll.ts`), waiting as long as a delivery may take. */
export function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = DELIVERY_WAIT_MS,
): Promise<T> {
  return poll(read, done, { timeoutMs, intervalMs: 150 });
}

/** An HTTPS receiver on 127.0.0.1 with the certificate the test stack trusts. */
export function newReceiver(): Promise<WebhookReceiver> {
  return startWebhookReceiver(inject('receiverCertificate'));
}

/** Connects the form's webhook to the receiver; returns its signing secret. */
export async function connectWebhook(form: TestForm, url: string): Promise<string> {
  const response = await api('PUT', `/v1/forms/${form.id}/webhook`, {
    key: form.apiKey,
    body: { url },
  });
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(`PUT webhook answered ${response.status}: ${response.text}`);
  }
  return response.body.secret as string;
}

export interface DeliveryView {
  deliveryId: string;
  submissionId: string;
  webhookId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: {
    number: number;
    at: string;
    outcome: string;
    responseStatus: number | null;
    error: string | null;
    responseBody: string | null;
    nextAttemptAt: string | null;
  }[];
}

export async function deliveriesOf(form: TestForm, query = ''): Promise<DeliveryView[]> {
  const response = await api('GET', `/v1/forms/${form.id}/webhook/deliveries${query}`, {
    key: form.apiKey,
  });
  if (response.status !== 200) throw new Error(`deliveries answered ${response.status}`);
  return response.body.deliveries as DeliveryView[];
}

/** A Slack or Discord integration's delivery log (docs/integrations.md#deliveries). */
export async function integrationDeliveriesOf(
  form: TestForm,
  kind: string,
  query = '',
): Promise<(DeliveryView & { cancelReason: string | null })[]> {
  const response = await api(
    'GET',
    `/v1/forms/${form.id}/integrations/${kind}/deliveries${query}`,
    { key: form.apiKey },
  );
  if (response.status !== 200) throw new Error(`${kind} deliveries answered ${response.status}`);
  return response.body.deliveries as (DeliveryView & { cancelReason: string | null })[];
}

/** The one delivery of a submission once its status is `status`. */
export async function deliveryWhen(
  form: TestForm,
  submissionId: string,
  status: string,
  timeoutMs = DELIVERY_WAIT_MS,
): Promise<DeliveryView | undefined> {
  const found = await eventually(
    () => deliveriesOf(form),
    (list) => list.some((d) => d.submissionId === submissionId && d.status === status),
    timeoutMs,
  );
  return found.find((d) => d.submissionId === submissionId);
}

export async function webhookOf(form: TestForm) {
  return (await api('GET', `/v1/forms/${form.id}/webhook`, { key: form.apiKey })).body as {
    state: string;
    lastError: string | null;
    secret: string;
  };
}

/** A client of the test stack's SQS emulator. */
export function localSqs(): SQSClient {
  const info = inject('localStack');
  return new SQSClient({
    region: info.region,
    endpoint: info.endpoints.sqs,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/**
 * Waits until the emails queue holds no message, visible, in flight or delayed: the
 * local poller deletes a message only after the worker handled it, so every email the
 * messages sent before this call could cause is in the emulator's store then (the
 * fan-out queues a submission's notification and auto-reply together). Asserts the
 * queue did drain, so an assertion of "no (more) email" after it is never vacuous: the
 * poll that replaces a fixed sleep before counting emails that must not come.
 */
export function untilEmailQueueDrained(
  client: SQSClient = localSqs(),
  timeoutMs = DELIVERY_WAIT_MS,
): Promise<void> {
  return untilQueueDrained('emails', client, timeoutMs);
}

/** Like `untilEmailQueueDrained`, for any queue of the test stack (`signIns`: sign-in emails). */
export async function untilQueueDrained(
  queue: string,
  client: SQSClient = localSqs(),
  timeoutMs = DELIVERY_WAIT_MS,
): Promise<void> {
  const url = inject('localStack').queues[queue]!.url;
  const left = await eventually(
    () => messagesIn(client, url),
    (count) => count === 0,
    timeoutMs,
  );
  expect(left, `messages still in the ${queue} queue`).toBe(0);
}
