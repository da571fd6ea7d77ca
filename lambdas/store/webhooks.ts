import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { Webhook } from '#domain/webhooks.ts';
import { documents } from './client.ts';
import { stripPlumbing, webhookKey } from './keys.ts';
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
