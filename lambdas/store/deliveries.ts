import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { DELIVERY_RETENTION_SECONDS, type Delivery } from '#domain/delivery-log.ts';
import type { DeliveryStatus } from '#domain/webhook-delivery.ts';
import { documents } from './client.ts';
import { DELIVERY_PREFIX, deliveryKey, emailMarkKey, formKey, stripPlumbing } from './keys.ts';
import { getItem } from './table.ts';

const expiresAt = (now: Date, seconds: number) => Math.floor(now.getTime() / 1000) + seconds;

function deliveryItem(delivery: Delivery, now: Date): Record<string, unknown> {
  return {
    ...deliveryKey(delivery.formId, delivery.submissionId),
    entity: 'delivery',
    ...delivery,
    expiresAt: expiresAt(now, DELIVERY_RETENTION_SECONDS),
  };
}

/** Records a queued delivery unless one exists (a retried fan-out changes nothing). */
export async function putPendingDelivery(delivery: Delivery, now: Date): Promise<void> {
  try {
    await documents.send(
      new PutCommand({
        TableName: config.tableName,
        Item: deliveryItem(delivery, now),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Saves the delivery as it now is; the retention restarts. */
export async function saveDelivery(delivery: Delivery, now: Date): Promise<void> {
  await documents.send(
    new PutCommand({ TableName: config.tableName, Item: deliveryItem(delivery, now) }),
  );
}

export async function getDelivery(
  formId: string,
  deliveryId: string,
): Promise<Delivery | undefined> {
  const item = await getItem(deliveryKey(formId, deliveryId));
  return item ? stripPlumbing<Delivery>(item) : undefined;
}

export interface DeliveryPage {
  deliveries: Delivery[];
  /** The last delivery's id when more may follow: pass it as `after`. */
  next: string | null;
}

/**
 * A page of the form's deliveries, newest first, optionally of one status.
 * The filter is applied after the read, so reading goes on until the page is
 * full or the deliveries end; `after` resumes behind a delivery id.
 */
export async function listDeliveries(
  formId: string,
  options: { status?: DeliveryStatus; limit: number; after?: string },
): Promise<DeliveryPage> {
  const deliveries: Delivery[] = [];
  let start: Record<string, unknown> | undefined = options.after
    ? deliveryKey(formId, options.after)
    : undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: options.status ? '#status = :status' : undefined,
        ExpressionAttributeNames: options.status ? { '#status': 'status' } : undefined,
        ExpressionAttributeValues: {
          ':pk': formKey(formId).pk,
          ':prefix': DELIVERY_PREFIX,
          ...(options.status ? { ':status': options.status } : {}),
        },
        ScanIndexForward: false,
        Limit: options.limit - deliveries.length,
        ExclusiveStartKey: start,
      }),
    );
    deliveries.push(...(page.Items ?? []).map((item) => stripPlumbing<Delivery>(item)));
    start = page.LastEvaluatedKey;
  } while (start && deliveries.length < options.limit);
  const last = deliveries.at(-1);
  return { deliveries, next: start && last ? last.deliveryId : null };
}

export type EmailKind = 'notification' | 'autoreply';

/** How long an email mark is kept: longer than any queue keeps a message. */
const EMAIL_MARK_SECONDS = 30 * 86_400;

/**
 * Claims one email of a submission before it is sent: false when it was
 * claimed already (the queue delivered the message twice, or a send is in
 * flight), so each email goes at most once.
 */
export async function claimEmail(
  formId: string,
  submissionId: string,
  kind: EmailKind,
  now: Date,
): Promise<boolean> {
  try {
    await documents.send(
      new PutCommand({
        TableName: config.tableName,
        Item: {
          ...emailMarkKey(formId, submissionId, kind),
          entity: 'emailMark',
          claimedAt: now.toISOString(),
          expiresAt: expiresAt(now, EMAIL_MARK_SECONDS),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Gives a claim back after a send that failed for now, so the retried message may send. */
export async function releaseEmail(formId: string, submissionId: string, kind: EmailKind) {
  await documents.send(
    new DeleteCommand({
      TableName: config.tableName,
      Key: emailMarkKey(formId, submissionId, kind),
    }),
  );
}
