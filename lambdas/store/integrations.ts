import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { notFound, ServiceError } from '#domain/errors.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { isUuid } from '#domain/ids.ts';
import {
  type Integration,
  type IntegrationKind,
  type IntegrationStatus,
  withKind,
  withoutKind,
} from '#domain/integrations.ts';
import { batchGetAll } from './batches.ts';
import { integrationItem } from './integration-items.ts';
import { formKey, INTEGRATION_PREFIX, integrationKey, stripPlumbing } from './keys.ts';
import { AGAIN, retrying, updateIf } from './retries.ts';
import { getItem, itemsWithPrefix, type TableTransactItem, transact } from './table.ts';

/** The integration of that kind, as stored. */
export type IntegrationOf<K extends IntegrationKind> = Extract<Integration, { kind: K }>;

export async function getIntegration<K extends IntegrationKind>(
  formId: string,
  kind: K,
  options: { consistent?: boolean } = {},
): Promise<IntegrationOf<K> | undefined> {
  const item = await getItem(integrationKey(formId, kind), options);
  return item ? stripPlumbing<IntegrationOf<K>>(item) : undefined;
}

/**
 * Every integration of the form (one Query on its prefix), read strongly
 * consistent: read just after a connect or a disconnect (the dashboard reads
 * the screen again), an eventually consistent Query may still give the
 * state before it. A form has at most three.
 */
export async function listIntegrations(formId: string): Promise<Integration[]> {
  const items = await itemsWithPrefix(formKey(formId).pk, INTEGRATION_PREFIX, {
    consistent: true,
  });
  return items.map((item) => stripPlumbing<Integration>(item));
}

/** The integrations the form lists as connected, read strongly consistent (the workers). */
export async function readIntegrations(
  formId: string,
  kinds: readonly IntegrationKind[],
): Promise<Integration[]> {
  if (kinds.length === 0) return [];
  const items = await batchGetAll(
    kinds.map((kind) => integrationKey(formId, kind)),
    { consistent: true },
  );
  return items.map((item) => stripPlumbing<Integration>(item));
}

const raceRetries = {
  attempts: 3,
  backoff: false,
  exhausted: () =>
    new ServiceError('conflict', 'The form kept changing meanwhile; retry the request'),
};

/** The form item as read now, if it is the team's. */
async function teamForm(teamId: string, formId: string | undefined): Promise<FormRecord> {
  const item = isUuid(formId) ? await getItem(formKey(formId), { consistent: true }) : undefined;
  if (!item || item.teamId !== teamId) throw notFound('Form');
  return stripPlumbing<FormRecord>(item);
}

/**
 * The form's list of connected kinds moves with the integration in one
 * transaction, on condition that the list is still as read (so two
 * connections made at once both land); a lost race reads again.
 */
function formListChange(form: FormRecord, next: IntegrationKind[]): TableTransactItem {
  const seen = form.integrations ?? [];
  return {
    Update: {
      Key: formKey(form.id),
      UpdateExpression: 'SET integrations = :next',
      ConditionExpression:
        seen.length === 0
          ? 'teamId = :team AND (attribute_not_exists(integrations) OR integrations = :seen)'
          : 'teamId = :team AND integrations = :seen',
      ExpressionAttributeValues: { ':next': next, ':seen': seen, ':team': form.teamId },
    },
  };
}

/**
 * Connects the kind (or changes its URL) with what `build` makes of the
 * integration as it stands: the integration and the form's list in one
 * transaction. Returns the form as read and the integration before and after.
 */
export async function saveIntegration<K extends IntegrationKind>(
  teamId: string,
  formId: string | undefined,
  kind: K,
  build: (form: FormRecord, existing: IntegrationOf<K> | undefined) => IntegrationOf<K>,
): Promise<{ form: FormRecord; before: IntegrationOf<K> | undefined; after: IntegrationOf<K> }> {
  return retrying(raceRetries, async () => {
    const form = await teamForm(teamId, formId);
    const before = await getIntegration(form.id, kind, { consistent: true });
    const after = build(form, before);
    try {
      await transact([
        formListChange(form, withKind(form.integrations ?? [], kind)),
        { Put: { Item: integrationItem(after) } },
      ]);
      return { form, before, after };
    } catch (error) {
      if (error instanceof TransactionCanceledException) return AGAIN;
      throw error;
    }
  });
}

/**
 * Disconnects the kind: the integration and its place in the form's list in
 * one transaction. Undefined when it was not connected.
 */
export async function removeIntegration(
  teamId: string,
  formId: string | undefined,
  kind: IntegrationKind,
): Promise<{ form: FormRecord; removed: Integration } | undefined> {
  return retrying(raceRetries, async () => {
    const form = await teamForm(teamId, formId);
    const item = await getItem(integrationKey(form.id, kind), { consistent: true });
    if (!item) return undefined;
    try {
      await transact([
        formListChange(form, withoutKind(form.integrations ?? [], kind)),
        {
          Delete: {
            Key: integrationKey(form.id, kind),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ]);
      return { form, removed: stripPlumbing<Integration>(item) };
    } catch (error) {
      if (error instanceof TransactionCanceledException) return AGAIN;
      throw error;
    }
  });
}

/**
 * Records how the last delivery went (docs/integrations.md#slack-and-discord-failures,
 * docs/integrations.md#sheets-failures):
 * `failing` with its error, or `active` again with `lastDeliveryAt`. Only
 * on the connection the delivery went to (a disconnect or a new connection
 * meanwhile wins).
 */
export function markIntegration(
  integration: Pick<Integration, 'formId' | 'kind' | 'connectedAt'>,
  outcome:
    | { status: Extract<IntegrationStatus, 'active'> }
    | { status: 'failing'; lastError: string },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const delivered = outcome.status === 'active';
  return updateIf({
    Key: integrationKey(integration.formId, integration.kind),
    UpdateExpression: delivered
      ? 'SET #status = :status, lastError = :none, lastDeliveryAt = :now, updatedAt = :now'
      : 'SET #status = :status, lastError = :error, updatedAt = :now',
    ConditionExpression: 'connectedAt = :connectedAt',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':status': outcome.status,
      ':now': at,
      ':connectedAt': integration.connectedAt,
      ...(delivered ? { ':none': null } : { ':error': outcome.lastError }),
    },
  });
}
