import { enqueue } from '#aws/queues.ts';
import type { WebhookJob } from '#domain/delivery-channels.ts';
import { assertRetryable, deliveryJob, requeued, toDeliveryView } from '#domain/delivery-log.ts';
import { notFound, planRequired, ServiceError } from '#domain/errors.ts';
import { isUuid } from '#domain/ids.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getDelivery, saveDelivery } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';
import { getWebhook } from '#store/webhooks.ts';

/**
 * Sends a failed or cancelled delivery again, with the same `webhook-id`,
 * signed with the current secret to the current URL (the webhook connected
 * now), with a fresh retry schedule: `202` and the delivery, now `pending`.
 */
export const contract = defineContract({
  tag: 'Webhooks',
  answers: [{ status: 202, description: 'Pending again.', body: 'Delivery' }],
  errors: ['plan_required', 'conflict', 'delivery_not_failed', 'delivery_not_retryable'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const deliveryId = pathParameters.deliveryId;
  const delivery = isUuid(deliveryId) ? await getDelivery(form.id, deliveryId) : undefined;
  if (!delivery) throw notFound('Delivery');
  if (caller.team.plan !== 'pro') throw planRequired('A webhook');
  const webhook = await getWebhook(form.id);
  if (!webhook) throw notFound('Webhook');
  assertRetryable(delivery);
  const now = new Date();
  const pending = requeued(delivery, webhook.createdAt, now);
  if (!(await saveDelivery(pending, delivery, now))) {
    throw new ServiceError('conflict', 'The delivery changed meanwhile; retry the request');
  }
  const { formId, submissionId, event } = deliveryJob(pending);
  await enqueue('webhooks', [{ formId, submissionId, event } satisfies WebhookJob]);
  return json(202, toDeliveryView(pending));
});
