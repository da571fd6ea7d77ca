import { notFound } from '#domain/errors.ts';
import { type IntegrationKind, isIntegrationKind } from '#domain/integrations.ts';

/** The `{kind}` of an integration route; any other is a 404 (docs/integrations.md#the-api). */
export function integrationKindOf(value: string | undefined): IntegrationKind {
  if (!isIntegrationKind(value)) throw notFound('Integration');
  return value;
}
