import type { IntegrationKind } from '#domain/integrations.ts';
import { call } from './api.ts';

/**
 * Which delivery log a screen shows: the webhook's, or an integration's
 * (Slack, Discord, Google Sheets). The two have the same shape, statuses and retry rule
 * (docs/integrations.md#deliveries), so one list serves both.
 */
export type DeliveryLogKind = 'webhook' | IntegrationKind;

/** A page of the log, newest first; `after` continues from the previous page's `next`. */
export function readDeliveries(
  formId: string,
  kind: DeliveryLogKind,
  after?: string,
  signal?: AbortSignal,
) {
  const query = { after };
  return kind === 'webhook'
    ? call('listWebhookDeliveries', { params: { id: formId }, query, signal })
    : call('listIntegrationDeliveries', { params: { id: formId, kind }, query, signal });
}

/** Sends a failed or cancelled delivery again. */
export function retryDelivery(formId: string, kind: DeliveryLogKind, deliveryId: string) {
  return kind === 'webhook'
    ? call('retryWebhookDelivery', { params: { id: formId, deliveryId } })
    : call('retryIntegrationDelivery', { params: { id: formId, kind, deliveryId } });
}
