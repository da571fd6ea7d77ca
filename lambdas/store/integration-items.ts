import type { Integration } from '#domain/integrations.ts';
import { integrationKey } from './keys.ts';

// Apart from integrations.ts: the form store (on the submit path) writes a duplicate's
// integrations and should not bundle the rest.

export function integrationItem(integration: Integration): Record<string, unknown> {
  return {
    ...integrationKey(integration.formId, integration.kind),
    entity: 'integration',
    ...integration,
  };
}
