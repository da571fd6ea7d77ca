import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { Webhook } from '#domain/webhooks.ts';
import { documents } from './client.ts';
import { stripPlumbing, webhookKey } from './keys.ts';
import { updateIf } from './retries.ts';
import { getItem } from './table.ts';

export function webhookItem(webhook: Webhook): Record<string, unknown> {
  return { ...webhookKey(webhook.formId), entity: 'webhook', ...webhook };
}

export async function getWebhook(formId: string): Promise<Webhook | undefined> {
  const item = await getItem(webhookKey(formId));
  return item ? stripPlumbing<Webhook>(item) : undefined;
}

export async function putWebhook(webhook: Webhook): Promise<void> {
  await documents.send(new PutCommand({ TableName: config.tableName, Item: webhookItem(webhook) }));
}

/** Returns false when no webhook was connected. */
export async function deleteWebhook(formId: string): Promise<boolean> {
  const { Attributes } = await documents.send(
    new DeleteCommand({
      TableName: config.tableName,
      Key: webhookKey(formId),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

/**
 * Records how the last delivery went: `failing` with its error after a
 * response that is not retried, `active` again after a success. Only while
 * the webhook is still connected (a disconnect meanwhile wins).
 */
export function markWebhook(
  formId: string,
  outcome: { state: 'active'; lastError: null } | { state: 'failing'; lastError: string },
  now: Date,
): Promise<boolean> {
  return updateIf({
    Key: webhookKey(formId),
    UpdateExpression: 'SET #state = :state, lastError = :error, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: {
      ':state': outcome.state,
      ':error': outcome.lastError,
      ':now': now.toISOString(),
    },
  });
}
