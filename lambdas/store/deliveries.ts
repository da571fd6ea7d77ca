import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import {
  DELIVERY_EVENTS,
  DELIVERY_RETENTION_SECONDS,
  type Delivery,
  type DeliveryTarget,
  deliveryIdOf,
} from '#domain/delivery-log.ts';
import { type EmailEvent, fateRank } from '#domain/email-events.ts';
import type { EmailMark } from '#domain/email-outcomes.ts';
import { INTEGRATION_KINDS } from '#domain/integrations.ts';
import type { DeliveryStatus } from '#domain/webhook-delivery.ts';
import { batchWriteAll } from './batches.ts';
import { documents } from './client.ts';
import {
  DELIVERY_PREFIX,
  deliveryKey,
  emailMarkKey,
  formKey,
  integrationDeliveryKey,
  integrationDeliveryPrefix,
  stripPlumbing,
  submissionKey,
} from './keys.ts';
import { updateIf } from './retries.ts';
import { getItem, transact } from './table.ts';

const expiresAt = (now: Date, seconds: number) => Math.floor(now.getTime() / 1000) + seconds;

/** A delivery's key: the webhook's log, or one integration's (docs/integrations.md#deliveries). */
const keyOf = (formId: string, target: DeliveryTarget, submissionId: string) =>
  target === 'webhook'
    ? deliveryKey(formId, submissionId)
    : integrationDeliveryKey(formId, target, submissionId);

const prefixOf = (target: DeliveryTarget) =>
  target === 'webhook' ? DELIVERY_PREFIX : integrationDeliveryPrefix(target);

function deliveryItem(delivery: Delivery, now: Date): Record<string, unknown> {
  return {
    ...keyOf(delivery.formId, delivery.channel ?? 'webhook', delivery.deliveryId),
    entity: 'delivery',
    ...delivery,
    expiresAt: expiresAt(now, DELIVERY_RETENTION_SECONDS),
  };
}

/**
 * Records a queued delivery unless one exists; true when it was recorded
 * now. A retried fan-out finds it and changes nothing.
 */
export async function putPendingDelivery(delivery: Delivery, now: Date): Promise<boolean> {
  return putIf(deliveryItem(delivery, now), 'attribute_not_exists(pk)', {});
}

/**
 * Saves the delivery as it now is, only if it is still as `seen` was (its
 * `updatedAt`, or absent when it was never stored): false when another
 * worker or a retry request changed it meanwhile, so two handlers of one
 * delivery can never overwrite each other. The retention restarts.
 *
 * A delivery not stored (`seen` absent: its entry was never written, or an
 * erase deleted it) is written only while its submission exists, in one
 * transaction: an erase deletes the submission, then its deliveries
 * (docs/privacy.md#erase-by-email), so a worker that read the submission
 * before the erase and the log after it cannot write the entry back; a
 * worker that read the log before it finds its `updatedAt` condition
 * failing. False when the submission is gone.
 */
export async function saveDelivery(
  delivery: Delivery,
  seen: Pick<Delivery, 'updatedAt'> | undefined,
  now: Date,
): Promise<boolean> {
  if (seen) {
    return putIf(deliveryItem(delivery, now), 'updatedAt = :seen', { ':seen': seen.updatedAt });
  }
  try {
    await transact([
      {
        ConditionCheck: {
          Key: submissionKey(delivery.formId, delivery.submissionId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Put: { Item: deliveryItem(delivery, now), ConditionExpression: 'attribute_not_exists(pk)' },
      },
    ]);
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    // The submission is gone, or another handler wrote the entry first; a conflict is retried.
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}

async function putIf(
  item: Record<string, unknown>,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  try {
    await documents.send(
      new PutCommand({
        TableName: config.tableName,
        Item: item,
        ConditionExpression: condition,
        ExpressionAttributeValues: Object.keys(values).length > 0 ? values : undefined,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function getDelivery(
  formId: string,
  deliveryId: string,
  target: DeliveryTarget = 'webhook',
): Promise<Delivery | undefined> {
  const item = await getItem(keyOf(formId, target, deliveryId), { consistent: true });
  return item ? stripPlumbing<Delivery>(item) : undefined;
}

export interface DeliveryPage {
  deliveries: Delivery[];
  /** The last delivery's id when more may follow: pass it as `after`. */
  next: string | null;
}

/** Queries one list request may make (each evaluates up to QUERY_ITEMS deliveries). */
const MAX_QUERIES = 10;
const QUERY_ITEMS = 100;

/**
 * A page of the form's deliveries to `target` (default the webhook), newest
 * first, optionally of one status.
 * With `submissionId`, only that submission's delivery: the delivery's key is
 * the submission's id, so it is one read, whatever the log's length.
 * The filter is applied after the read, so reading goes on until the page is
 * full, the deliveries end, or MAX_QUERIES reads were made (a rare status in
 * a long log then gives a short page with a `next`); `after` resumes behind
 * a delivery id.
 */
export async function listDeliveries(
  formId: string,
  options: {
    status?: DeliveryStatus;
    limit: number;
    after?: string;
    submissionId?: string;
    target?: DeliveryTarget;
  },
): Promise<DeliveryPage> {
  const target = options.target ?? 'webhook';
  const prefix = prefixOf(target);
  if (options.submissionId !== undefined) {
    const one = await getDelivery(formId, options.submissionId.toLowerCase(), target);
    const kept =
      one !== undefined &&
      (options.status === undefined || one.status === options.status) &&
      (options.after === undefined || one.deliveryId < options.after.toLowerCase());
    return { deliveries: kept ? [one] : [], next: null };
  }
  let deliveries: Delivery[] = [];
  let start: Record<string, unknown> | undefined = options.after
    ? keyOf(formId, target, options.after)
    : undefined;
  let queries = 0;
  do {
    queries += 1;
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: options.status ? '#status = :status' : undefined,
        ExpressionAttributeNames: options.status ? { '#status': 'status' } : undefined,
        ExpressionAttributeValues: {
          ':pk': formKey(formId).pk,
          ':prefix': prefix,
          ...(options.status ? { ':status': options.status } : {}),
        },
        ScanIndexForward: false,
        Limit: options.status ? QUERY_ITEMS : options.limit - deliveries.length,
        ExclusiveStartKey: start,
      }),
    );
    deliveries.push(...(page.Items ?? []).map((item) => stripPlumbing<Delivery>(item)));
    start = page.LastEvaluatedKey;
  } while (start && deliveries.length < options.limit && queries < MAX_QUERIES);
  if (deliveries.length > options.limit) {
    // Read past the page: the next one starts after its last delivery.
    deliveries = deliveries.slice(0, options.limit);
    return { deliveries, next: deliveries.at(-1)!.deliveryId };
  }
  if (!start) return { deliveries, next: null };
  // Everything read after the last delivery kept was of another status.
  const lastRead = String(start.sk).slice(prefix.length);
  return {
    deliveries,
    next: deliveries.length === options.limit ? deliveries.at(-1)!.deliveryId : lastRead,
  };
}

/** An email of a submission: its notification, its auto-reply, a file found infected, its confirmation. */
export type EmailKind = 'notification' | 'autoreply' | 'malware' | 'confirm';

/** How long an email mark is kept: longer than any queue keeps a message. */
const EMAIL_MARK_SECONDS = 30 * 86_400;

/**
 * What claiming an email found: `claimed` (this delivery sends it), `final`
 * (sent already, or refused by SES: nothing to do) or `held` (another
 * delivery claimed it within the lease: its send may be in flight, or its
 * worker may have died; look again later).
 */
export type EmailClaim = 'claimed' | 'final' | 'held';

/**
 * Claims one email of a submission before it is sent. A claim never marked
 * sent expires after `leaseSeconds`: its claimer died between the claim and
 * the send (a timeout, a crash), so a later delivery takes it over. An email
 * is thus sent at least once while its message lives (the queue retries it,
 * then keeps it in its dead-letter queue), and twice only when SES accepted
 * it but it was not marked sent (its worker died in between, or the write
 * failed) and the message came again.
 */
export async function claimEmail(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  now: Date,
  leaseSeconds: number,
): Promise<EmailClaim> {
  const staleBefore = new Date(now.getTime() - leaseSeconds * 1000);
  try {
    // An update, not a put: a stale claim taken over keeps what the mark holds (the fates
    // SES reported of a send whose worker died before marking it sent).
    await documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: emailMarkKey(formId, submissionId, kind),
        // Each recipient's fate goes in `recipientFates` (recordEmailFate): empty at the
        // first claim, kept by a takeover.
        UpdateExpression:
          'SET entity = :entity, claimedAt = :claimedAt, expiresAt = :expiresAt, ' +
          'recipientFates = if_not_exists(recipientFates, :none)',
        ConditionExpression:
          'attribute_not_exists(pk) OR (attribute_not_exists(sentAt) AND ' +
          'attribute_not_exists(refusedAt) AND claimedAt < :staleBefore)',
        ExpressionAttributeValues: {
          ':entity': 'emailMark',
          ':claimedAt': now.toISOString(),
          ':expiresAt': expiresAt(now, EMAIL_MARK_SECONDS),
          ':staleBefore': staleBefore.toISOString(),
          ':none': {},
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'claimed';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // The mark as it stood, in raw attribute values (the document client leaves errors be).
    const held = error.Item;
    return held?.sentAt || held?.refusedAt ? 'final' : 'held';
  }
}

/**
 * Marks a claimed email sent (SES accepted it as `messageId`): it is never claimed again.
 * `to` holds the addresses it went to, as sent (its To first, then its Cc, the suppressed
 * ones left out): the email's status is its To's fate (docs/delivery.md#what-became-of-an-email).
 */
export async function recordEmailSent(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  sent: { messageId: string; now: Date; to: readonly string[] },
): Promise<void> {
  await finishEmail(
    formId,
    submissionId,
    kind,
    'SET sentAt = :at, sesMessageId = :messageId, sentTo = :to',
    { ':at': sent.now.toISOString(), ':messageId': sent.messageId, ':to': [...sent.to] },
  );
}

/**
 * Marks a claimed email not to be sent, for good: refused by SES (a bad
 * address, a rejected message), by the per-recipient auto-reply limit, or
 * because its recipient is on the team's suppression list. It is never
 * claimed again.
 */
export async function recordEmailRefused(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  now: Date,
  by: 'ses' | 'limit' | 'suppressed',
): Promise<void> {
  await finishEmail(formId, submissionId, kind, 'SET refusedAt = :at, refusedBy = :by', {
    ':at': now.toISOString(),
    ':by': by,
  });
}

/** The notification's and the auto-reply's marks of one submission, read at once. */
export async function getEmailMarks(
  formId: string,
  submissionId: string,
): Promise<Record<'notification' | 'autoreply', EmailMark | undefined>> {
  const [notification, autoreply] = await Promise.all(
    (['notification', 'autoreply'] as const).map((kind) =>
      getEmailMark(formId, submissionId, kind),
    ),
  );
  return { notification, autoreply };
}

/** One email's mark of a submission. */
export async function getEmailMark(
  formId: string,
  submissionId: string,
  kind: EmailKind,
): Promise<EmailMark | undefined> {
  return (await getItem(emailMarkKey(formId, submissionId, kind))) as EmailMark | undefined;
}

/** The key a recipient's fate is kept under in the mark's `recipientFates`. */
export const recipientKey = (address: string): string => address.trim().toLowerCase();

/**
 * Records what SES said became of a sent email (docs/delivery.md#what-became-of-an-email)
 * for each recipient the event is about, unless a stronger fate is recorded for that
 * recipient already: events arrive in any order (a delivery after its bounce), and a
 * complaint outranks a delivery. A mark claimed before recipients had fates of their own
 * (no `recipientFates`) gets the fate for the whole email, under the same rule.
 * False when nothing was recorded: the mark is gone (its submission erased), or holds
 * stronger fates.
 */
export async function recordEmailFate(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  event: Pick<EmailEvent, 'fate' | 'at' | 'bounceType' | 'bounceSubType' | 'recipients'>,
): Promise<boolean> {
  const rank = fateRank(event.fate, event.bounceType);
  const fate: Record<string, unknown> = { fate: event.fate, rank, at: event.at };
  if (event.bounceType) fate.bounceType = event.bounceType;
  if (event.bounceSubType) fate.bounceSubType = event.bounceSubType;
  const key = emailMarkKey(formId, submissionId, kind);
  // One update a recipient: each has its own "stronger only" condition.
  const perRecipient = [...new Set(event.recipients.map(recipientKey))].map((address) =>
    updateIf({
      Key: key,
      UpdateExpression: 'SET recipientFates.#address = :fate',
      ConditionExpression:
        'attribute_exists(recipientFates) AND ' +
        '(attribute_not_exists(recipientFates.#address) OR recipientFates.#address.#rank < :rank)',
      ExpressionAttributeNames: { '#address': address, '#rank': 'rank' },
      ExpressionAttributeValues: { ':fate': fate, ':rank': rank },
    }),
  );
  if ((await Promise.all(perRecipient)).some(Boolean)) return true;
  // None recorded: the fates held are as strong, or the mark predates recipientFates
  // (tried only now, so a current mark costs no failed write for it).
  const values: Record<string, unknown> = { ':fate': event.fate, ':rank': rank, ':at': event.at };
  let update = 'SET fate = :fate, fateRank = :rank, fateAt = :at';
  if (event.bounceType) {
    update += ', bounceType = :bounceType';
    values[':bounceType'] = event.bounceType;
  }
  if (event.bounceSubType) {
    update += ', bounceSubType = :bounceSubType';
    values[':bounceSubType'] = event.bounceSubType;
  }
  return updateIf({
    Key: key,
    UpdateExpression: update,
    ConditionExpression:
      'attribute_exists(pk) AND attribute_not_exists(recipientFates) AND ' +
      '(attribute_not_exists(fateRank) OR fateRank < :rank)',
    ExpressionAttributeValues: values,
  });
}

// Only an existing mark: an update never creates one without its claim and its TTL.
async function finishEmail(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  update: string,
  values: Record<string, unknown>,
): Promise<void> {
  await documents.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: emailMarkKey(formId, submissionId, kind),
      UpdateExpression: update,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Gives a claim back after a send that failed for now, so the retried message
 * may send: only the claim written at `claimedAt`, never another delivery's
 * claim nor a final mark.
 */
export async function releaseEmail(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  claimedAt: Date,
): Promise<void> {
  try {
    await documents.send(
      new DeleteCommand({
        TableName: config.tableName,
        Key: emailMarkKey(formId, submissionId, kind),
        ConditionExpression:
          'claimedAt = :mine AND attribute_not_exists(sentAt) AND attribute_not_exists(refusedAt)',
        ExpressionAttributeValues: { ':mine': claimedAt.toISOString() },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Deletes what the delivery log and the email records keep of erased
 * submissions (docs/privacy.md#erase-by-email): each one's webhook delivery,
 * its delivery to every kind of integration (connected now or not), and its
 * notification and autoreply marks. Keys already gone change nothing.
 */
export async function deleteDeliveryRecords(
  formId: string,
  submissionIds: readonly string[],
): Promise<void> {
  const kinds: EmailKind[] = ['notification', 'autoreply', 'malware', 'confirm'];
  const keys = submissionIds.flatMap((id) =>
    DELIVERY_EVENTS.map((event) => deliveryIdOf(id, event)).flatMap((deliveryId) => [
      deliveryKey(formId, deliveryId),
      ...INTEGRATION_KINDS.map((kind) => integrationDeliveryKey(formId, kind, deliveryId)),
    ]),
  );
  keys.push(...submissionIds.flatMap((id) => kinds.map((kind) => emailMarkKey(formId, id, kind))));
  for (let i = 0; i < keys.length; i += 25) {
    await batchWriteAll(keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })));
  }
}
