import {
  type ChatKind,
  type Integration,
  type SheetsIntegration,
  toChatIntegrationView,
  toSheetsIntegrationView,
} from './integrations.ts';
import type { Webhook } from './webhooks.ts';

/** `GET /v1/forms/{id}/integrations` (docs/integrations.md#the-api). */
export function toIntegrationsView(input: {
  serviceAccountEmail: string | null;
  webhook: Webhook | undefined;
  /** When the webhook's newest delivered delivery was delivered. */
  webhookLastDeliveryAt: string | null;
  integrations: readonly Integration[];
}) {
  const chat = (kind: ChatKind) => {
    const found = input.integrations.find((integration) => integration.kind === kind);
    return found && found.kind !== 'sheets' ? toChatIntegrationView(found) : null;
  };
  const sheets = input.integrations.find(
    (integration): integration is SheetsIntegration => integration.kind === 'sheets',
  );
  const { webhook } = input;
  return {
    serviceAccountEmail: input.serviceAccountEmail,
    webhook: webhook
      ? {
          url: webhook.url,
          status: webhook.state,
          lastError: webhook.lastError,
          connectedAt: webhook.createdAt,
          lastDeliveryAt: input.webhookLastDeliveryAt,
        }
      : null,
    sheets: sheets ? toSheetsIntegrationView(sheets) : null,
    slack: chat('slack'),
    discord: chat('discord'),
  };
}
