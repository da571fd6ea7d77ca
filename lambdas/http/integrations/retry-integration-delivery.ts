import { randomUUID } from 'node:crypto';
import { enqueue, enqueueInOrder } from '#aws/queues.ts';
import { sheetsMessage, type WebhookJob } from '#domain/delivery-channels.ts';
import { assertRetryable, deliveryJob, requeued, toDeliveryView } from '#domain/delivery-log.ts';
import { notFound, planRequired, ServiceError } from '#domain/errors.ts';
import { isUuid } from '#domain/ids.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getDelivery, saveDelivery } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';
import { getIntegration } from '#store/integrations.ts';
import { integrationKindOf } from './integration-kind.ts';

const KIND_NAMES = { sheets: 'Google Sheets', slack: 'Slack', discord: 'Discord' } as const;

/**
 * Sends a failed or cancelled delivery again to the integration connected
 * now, with a fresh retry schedule: `202` and the delivery, now `pending`
 * (docs/delivery.md#manual-retry). A Sheets row goes back on the FIFO
 * queue behind its form's others, and appends nothing when it is there.
 */
export const contract = defineContract({
  tag: 'Integrations',
  answers: [{ status: 202, description: 'Pending again.', body: 'Delivery' }],
  errors: ['plan_required', 'conflict', 'delivery_not_failed', 'delivery_not_retryable'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const kind = integrationKindOf(pathParameters.kind);
  const deliveryId = pathParameters.deliveryId;
  const delivery = isUuid(deliveryId) ? await getDelivery(form.id, deliveryId, kind) : undefined;
  if (!delivery) throw notFound('Delivery');
  if (caller.team.plan !== 'pro') throw planRequired(KIND_NAMES[kind]);
  const integration = await getIntegration(form.id, kind, { consistent: true });
  if (!integration) throw notFound('Integration');
  assertRetryable(delivery);
  const now = new Date();
  const pending = requeued(delivery, integration.connectedAt, now);
  if (!(await saveDelivery(pending, delivery, now))) {
    throw new ServiceError('conflict', 'The delivery changed meanwhile; retry the request');
  }
  if (kind === 'sheets') {
    // A fresh deduplication id (FIFO drops a repeat of the first message's), and `manual`:
    // the row may be in the sheet already, so the worker looks before appending.
    const job = { formId: form.id, submissionId: delivery.submissionId, manual: true } as const;
    await enqueueInOrder('sheets', [sheetsMessage(job, randomUUID())]);
  } else {
    const { formId, submissionId, event } = deliveryJob(pending);
    await enqueue('webhooks', [
      { formId, submissionId, channel: kind, event } satisfies WebhookJob,
    ]);
  }
  return json(202, toDeliveryView(pending));
});
