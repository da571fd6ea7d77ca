import { notFound } from '#domain/errors.ts';
import {
  type ChatKind,
  type IntegrationKind,
  isChatKind,
  isIntegrationKind,
} from '#domain/integrations.ts';

/** The `{kind}` of an integration route; any other is a 404 (docs/integrations.md#the-api). */
export function integrationKindOf(value: string | undefined): IntegrationKind {
  if (!isIntegrationKind(value)) throw notFound('Integration');
  return value;
}

/** A kind this round connects with a URL: Slack or Discord (Sheets is not connectable yet). */
export function chatKindOf(value: string | undefined): ChatKind {
  if (!isChatKind(value)) throw notFound('Integration');
  return value;
}
