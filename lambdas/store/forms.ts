import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { AnswerCatalogue } from '#domain/answer-columns.ts';
import { formLimitReached, notFound, ServiceError, unauthorized } from '#domain/errors.ts';
import { newFormKey, withSettingDefaults } from '#domain/form-defaults.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { isUuid } from '#domain/ids.ts';
import type { Integration } from '#domain/integrations.ts';
import { type FolderSizes, testCountOf } from '#domain/submission-folders.ts';
import type { Webhook } from '#domain/webhooks.ts';
import { answerCatalogueOf, newAnswerCatalogueItem } from './answer-columns.ts';
import { batchWriteAll } from './batches.ts';
import { childrenOf } from './by-parent.ts';
import { documents } from './client.ts';
import {
  type FormCounters,
  type FormGate,
  gateOf,
  gateWrites,
  readCounters,
  sameGate,
  shardDeletes,
  sumCounters,
} from './form-counters.ts';
import { integrationItem } from './integration-items.ts';
import {
  FORM_META_PREFIX,
  formKey,
  formKeyMappingKey,
  personPlaceKey,
  stripPlumbing,
  teamFormsParent,
  teamKey,
} from './keys.ts';
import { AGAIN, retrying, updateIf } from './retries.ts';
import { getItem, itemsWithPrefix, type TableTransactItem, transact } from './table.ts';
import { webhookItem } from './webhooks.ts';

export interface FormKeyMapping {
  formId: string;
  teamId: string;
}

const KEY_ATTEMPTS = 3;

function formKeyMappingItem(key: string, mapping: FormKeyMapping): Record<string, unknown> {
  return { ...formKeyMappingKey(key), entity: 'formKey', ...mapping };
}

/**
 * Stores a new form, its public key mapping and the team's form count in one
 * transaction. The Free limit is a condition on the team's counter, so
 * concurrent creates can never overshoot it. Returns the form as stored (its
 * key is replaced if it collided with an existing one).
 */
export async function insertForm(
  form: FormRecord,
  extras: { webhook?: Webhook; integrations?: readonly Integration[] } = {},
): Promise<FormRecord> {
  let candidate = form;
  const keyRetries = {
    attempts: KEY_ATTEMPTS,
    backoff: false,
    exhausted: () => new Error(`a new form key collided ${KEY_ATTEMPTS} times`),
  };
  return retrying(keyRetries, async () => {
    try {
      await transact([
        {
          Update: {
            Key: teamKey(candidate.teamId),
            UpdateExpression: 'ADD formCount :one',
            ConditionExpression:
              'attribute_exists(pk) AND (#plan = :pro OR attribute_not_exists(formCount) OR formCount < :limit)',
            ExpressionAttributeNames: { '#plan': 'plan' },
            ExpressionAttributeValues: {
              ':one': 1,
              ':pro': 'pro',
              ':limit': config.freeFormLimit,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Put: {
            Item: formItem(candidate),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            Item: formKeyMappingItem(candidate.key, {
              formId: candidate.id,
              teamId: candidate.teamId,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...gateWrites(candidate.id, gateOf(candidate), NO_COUNTS),
        newAnswerCatalogueItem(candidate.id),
        ...(extras.webhook
          ? [
              {
                Put: {
                  Item: webhookItem({ ...extras.webhook, formId: candidate.id }),
                },
              },
            ]
          : []),
        ...(extras.integrations ?? []).map((integration) => ({
          Put: { Item: integrationItem({ ...integration, formId: candidate.id }) },
        })),
      ]);
      return candidate;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const [team, , mapping] = error.CancellationReasons ?? [];
      if (team?.Code === 'ConditionalCheckFailed') {
        if (!team.Item) throw unauthorized('The team of this API key no longer exists');
        throw formLimitReached(config.freeFormLimit);
      }
      if (mapping?.Code !== 'ConditionalCheckFailed') throw error;
      candidate = { ...candidate, key: newFormKey() };
      return AGAIN;
    }
  });
}

/** The form item: settings and ownership; its counters live on shards (form-counters.ts). */
function formItem(form: FormRecord): Record<string, unknown> {
  const { submissionCount: _counted, ...stored } = form;
  return {
    ...formKey(form.id),
    entity: 'form',
    parentPk: teamFormsParent(form.teamId),
    ...stored,
  };
}

const NO_COUNTS: FormCounters = {
  shards: new Map(),
  folders: { all: 0, unread: 0, starred: 0, spam: 0, pending: 0 },
  counted: 0,
};

export interface StoredForm {
  form: FormRecord;
  counters: FormCounters;
  /** The form's column catalogue (answer-columns.ts); undefined for a form stored before it. */
  columns: AnswerCatalogue | undefined;
}

/**
 * The form, its counter shards and its column catalogue in one Query (their
 * sort keys share the `FORM` prefix), `submissionCount` summed from the shards.
 */
export async function readForm(
  formId: string,
  options: { consistent?: boolean } = {},
): Promise<StoredForm | undefined> {
  const items = await itemsWithPrefix(formKey(formId).pk, FORM_META_PREFIX, options);
  return storedForm(items);
}

export function storedForm(items: readonly Record<string, unknown>[]): StoredForm | undefined {
  const item = items.find((candidate) => candidate.sk === formKey('').sk);
  if (!item) return undefined;
  const counters = sumCounters(items);
  const form = {
    ...withSettingDefaults(stripPlumbing<FormRecord>(item)),
    submissionCount: counters.counted,
  };
  return { form, counters, columns: answerCatalogueOf(items) };
}

export async function getForm(formId: string): Promise<FormRecord | undefined> {
  return (await readForm(formId))?.form;
}

/**
 * Writes the form's gate on every counter shard, creating those missing (a
 * form stored before the shards existed). False when the form is gone.
 */
export async function ensureCounterShards(formId: string): Promise<boolean> {
  // A write that lost a race (the form changed, posts moved a capped shard)
  // reads again: up to 3 tries, then the caller's own retries take over.
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored = await readForm(formId, { consistent: true });
    if (!stored) return false;
    const written = await commitWithGate(
      {
        ConditionCheck: {
          Key: formKey(formId),
          ConditionExpression: 'updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': stored.form.updatedAt },
        },
      },
      formId,
      gateOf(stored.form),
    );
    if (written) return true;
  }
  return true;
}

/** Forms whose counters are read at once by the form list. */
const LIST_COUNT_READS = 16;

/** What the byParent index holds of a form: the form list's fields. */
export type ListedForm = Pick<
  FormRecord,
  'id' | 'teamId' | 'name' | 'type' | 'emoji' | 'status' | 'key' | 'createdAt' | 'submissionCount'
> & { unreadCount: number; testCount: number };

/**
 * The team's forms, newest first, each with its `submissionCount`, tests
 * outside spam and unread summed from its shards.
 */
export async function listTeamForms(teamId: string): Promise<ListedForm[]> {
  const forms = await childrenOf<ListedForm>(teamFormsParent(teamId));
  let next = 0;
  const counting = async () => {
    while (next < forms.length) {
      const i = next++;
      const form = forms[i]!;
      const counters = await readCounters(form.id);
      forms[i] = {
        ...form,
        submissionCount: counters.counted,
        testCount: testCountOf(counters.folders, counters.counted),
        unreadCount: counters.folders.unread,
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIST_COUNT_READS, forms.length) }, counting));
  return forms;
}

/**
 * The public submit path's first lookup: which form a key belongs to. A
 * consistent read (1 read unit, not 0.5): after a key rotation the old
 * endpoint stops accepting at once, which a lagging read of the deleted
 * mapping would not honour (docs/forms.md#deleting-duplicating-rotating-testing).
 */
export async function findFormKey(key: string): Promise<FormKeyMapping | undefined> {
  const item = await getItem(formKeyMappingKey(key), { consistent: true });
  return item ? { formId: item.formId as string, teamId: item.teamId as string } : undefined;
}

/**
 * How many pages a form has (0 without pages), or undefined when it is gone:
 * the step beacon's check (docs/analytics.md#the-funnel). One eventually
 * consistent GetItem of the form item, projected to its pages, so the
 * counter shards and the answer catalogue are not read.
 */
export async function formPageCount(formId: string): Promise<number | undefined> {
  const { Item } = await documents.send(
    new GetCommand({
      TableName: config.tableName,
      Key: formKey(formId),
      ProjectionExpression: 'pk, #pages',
      ExpressionAttributeNames: { '#pages': 'pages' },
    }),
  );
  if (!Item) return undefined;
  return Array.isArray(Item.pages) ? Item.pages.length : 0;
}

/** A form of the caller's team; any other form (or none) is the same 404. */
export async function getTeamForm(teamId: string, formId: string | undefined): Promise<FormRecord> {
  return (await getTeamFormWithFolders(teamId, formId)).form;
}

/** The form and the exact size of each inbox folder, summed from its counter shards. */
export async function getTeamFormWithFolders(
  teamId: string,
  formId: string | undefined,
): Promise<{ form: FormRecord; folders: FolderSizes }> {
  const stored = isUuid(formId) ? await readForm(formId) : undefined;
  if (!stored || stored.form.teamId !== teamId) throw notFound('Form');
  return { form: stored.form, folders: stored.counters.folders };
}

/**
 * The team's form with its column catalogue, read consistently: the CSV
 * export's header then holds every name of every post committed before it.
 */
export async function getTeamFormWithColumns(
  teamId: string,
  formId: string | undefined,
): Promise<{ form: FormRecord; columns: AnswerCatalogue | undefined }> {
  const stored = isUuid(formId) ? await readForm(formId, { consistent: true }) : undefined;
  if (!stored || stored.form.teamId !== teamId) throw notFound('Form');
  return { form: stored.form, columns: stored.columns };
}

/** Counters and ownership that a settings update must never overwrite. */
const NOT_SETTINGS = new Set([
  'id',
  'teamId',
  'userId',
  'key',
  'submissionCount',
  'createdAt',
  // Moves only with its integration, in one transaction (store/integrations.ts).
  'integrations',
]);

/**
 * Writes the settings that differ between `current` (as read) and `next`.
 * Only those attributes are set, so counters moved concurrently by
 * submissions survive; the condition on `updatedAt` makes a concurrent
 * settings change fail this write (returns false) instead of being lost.
 */
export async function saveFormSettings(current: FormRecord, next: FormRecord): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': current.updatedAt, ':team': current.teamId };
  const sets: string[] = [];
  for (const [name, value] of Object.entries(next)) {
    if (NOT_SETTINGS.has(name)) continue;
    if (
      JSON.stringify(value) ===
      JSON.stringify((current as unknown as Record<string, unknown>)[name])
    )
      continue;
    const i = sets.length;
    names[`#n${i}`] = name;
    values[`:v${i}`] = value;
    sets.push(`#n${i} = :v${i}`);
  }
  if (sets.length === 0) return true;
  const change = {
    Key: formKey(current.id),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk) AND teamId = :team AND updatedAt = :seen',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  const gate = gateOf(next);
  // Most changes leave the gate as it is: one plain write, not a transaction.
  if (sameGate(gateOf(current), gate)) return updateIf(change);
  return commitWithGate({ Update: change }, current.id, gate);
}

/**
 * Commits a change of the form item with its new gate on every shard. False when a condition failed or another writer held an
 * item: the caller reads again and decides.
 */
async function commitWithGate(
  formChange: TableTransactItem,
  formId: string,
  gate: FormGate,
): Promise<boolean> {
  const counters =
    gate.open && gate.limit !== null ? await readCounters(formId, { consistent: true }) : NO_COUNTS;
  const items = [formChange, ...gateWrites(formId, gate, counters)];
  try {
    await transact(items);
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException) return false;
    throw error;
  }
}

/**
 * A change that lost a race with another change of the same form reads the
 * form again and retries at once (the fresh read is the wait), 3 times.
 */
const saveRetries = (doing: string) => ({
  attempts: 3,
  backoff: false,
  exhausted: () =>
    new ServiceError('conflict', `The form kept changing while ${doing}; retry the request`),
});

/**
 * Read, change, write with the optimistic lock of saveFormSettings, retried
 * when another settings change won the race. `change` must be pure: it may
 * run more than once.
 */
export async function changeTeamForm(
  teamId: string,
  formId: string | undefined,
  change: (current: FormRecord) => FormRecord,
): Promise<{ before: FormRecord; after: FormRecord }> {
  return retrying(saveRetries('saving'), async () => {
    const before = await getTeamForm(teamId, formId);
    const after = change(before);
    return (await saveFormSettings(before, after)) ? { before, after } : AGAIN;
  });
}

/**
 * Gives the form a new public key in one transaction: the form, the old
 * mapping's removal and the new mapping commit together, so the old endpoint
 * stops resolving at the same instant the new one starts.
 */
export async function rotateFormKey(
  teamId: string,
  formId: string | undefined,
  now: Date,
): Promise<FormRecord> {
  return retrying(saveRetries('rotating its key'), async () => {
    const current = await getTeamForm(teamId, formId);
    const next: FormRecord = { ...current, key: newFormKey(), updatedAt: now.toISOString() };
    try {
      await transact([
        {
          Update: {
            Key: formKey(current.id),
            UpdateExpression: 'SET #key = :next, updatedAt = :now',
            ConditionExpression: 'teamId = :team AND #key = :current',
            ExpressionAttributeNames: { '#key': 'key' },
            ExpressionAttributeValues: {
              ':next': next.key,
              ':now': next.updatedAt,
              ':team': teamId,
              ':current': current.key,
            },
          },
        },
        {
          Delete: {
            Key: formKeyMappingKey(current.key),
            ConditionExpression: 'formId = :form',
            ExpressionAttributeValues: { ':form': current.id },
          },
        },
        {
          Put: {
            Item: formKeyMappingItem(next.key, { formId: current.id, teamId }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]);
      return next;
    } catch (error) {
      // A concurrent rotation or deletion, or a key collision: read again and retry.
      if (!(error instanceof TransactionCanceledException)) throw error;
      return AGAIN;
    }
  });
}

/**
 * The scheduled close: only when the form is still open and its close date is
 * still the one the schedule was made for (a moved or cleared date leaves a
 * stale schedule harmless). Returns whether it closed the form.
 */
export async function closeFormOnSchedule(
  formId: string,
  autoCloseAt: string,
  now: Date,
): Promise<boolean> {
  return retrying(saveRetries('closing it'), async () => {
    const stored = await readForm(formId, { consistent: true });
    if (!stored) return false;
    const { form } = stored;
    if (
      form.autoCloseAt !== autoCloseAt ||
      form.status !== 'active' ||
      now.toISOString() < autoCloseAt
    )
      return false;
    const closed = await commitWithGate(
      closing(formId, 'auto_close_date', form, now, 'autoCloseAt = :at AND :now >= autoCloseAt', {
        ':at': autoCloseAt,
      }),
      formId,
      gateOf({ ...form, status: 'paused', closedReason: 'auto_close_date' }),
    );
    return closed ? true : AGAIN;
  });
}

/** Pauses the form for `reason`, on the condition that it is still as read. */
function closing(
  formId: string,
  reason: 'auto_close_date' | 'max_submissions',
  seen: FormRecord,
  now: Date,
  condition: string,
  values: Record<string, unknown>,
): TableTransactItem {
  return {
    Update: {
      Key: formKey(formId),
      UpdateExpression: 'SET #status = :paused, closedReason = :reason, updatedAt = :now',
      ConditionExpression: `#status = :active AND updatedAt = :seen AND ${condition}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':paused': 'paused',
        ':reason': reason,
        ':active': 'active',
        ':seen': seen.updatedAt,
        ':now': now.toISOString(),
        ...values,
      },
    },
  };
}

/**
 * Records that the form reached `maxSubmissions`: only while it is still
 * open and its count really is at the limit (a raised limit or a reopen in
 * between leaves it open). Returns whether it closed the form.
 */
export async function closeFormAtLimit(formId: string, now: Date): Promise<boolean> {
  const item = await getItem(formKey(formId), { consistent: true });
  if (!item) return false;
  const form = stripPlumbing<FormRecord>(item);
  if (!gateOf(form).open || form.maxSubmissions === null) return false;
  const { counted } = await readCounters(formId, { consistent: true });
  if (counted < form.maxSubmissions) return false;
  // Every refused post may get here at once: the form item alone decides which
  // one closes it, and only that one writes the closed gate on the shards
  // (they are full anyway, and the submit path reads the form's status first).
  const closed = await updateIf(
    closing(formId, 'max_submissions', form, now, 'maxSubmissions = :max', {
      ':max': form.maxSubmissions,
    }).Update as UpdateCommandInput,
  );
  if (closed) await ensureCounterShards(formId);
  return closed;
}

/**
 * Deletes the form, its key mapping and one from the team's form count in one
 * transaction: from then on the endpoint is gone and every path to the form's
 * items answers 404. The rest of the form's partition (submissions, webhook,
 * deliveries) is purged from the table stream's REMOVE record.
 */
export async function deleteTeamForm(
  teamId: string,
  formId: string | undefined,
): Promise<FormRecord> {
  return retrying(saveRetries('deleting it'), async () => {
    const form = await getTeamForm(teamId, formId);
    try {
      await transact([
        {
          Delete: {
            Key: formKey(form.id),
            ConditionExpression: 'teamId = :team AND #key = :key',
            ExpressionAttributeNames: { '#key': 'key' },
            ExpressionAttributeValues: { ':team': teamId, ':key': form.key },
          },
        },
        {
          Delete: {
            Key: formKeyMappingKey(form.key),
            ConditionExpression: 'formId = :form',
            ExpressionAttributeValues: { ':form': form.id },
          },
        },
        {
          Update: {
            Key: teamKey(teamId),
            UpdateExpression: 'ADD formCount :minusOne',
            ConditionExpression: 'attribute_exists(pk) AND formCount > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          },
        },
        ...shardDeletes(form.id),
      ]);
      return form;
    } catch (error) {
      // A concurrent rotation or deletion: read again (a deleted form is then a 404).
      if (!(error instanceof TransactionCanceledException)) throw error;
      return AGAIN;
    }
  });
}

/** Deletes every item left in a deleted form's partition; returns how many. Safe to repeat. */
export async function purgeFormPartition(formId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': formKey(formId).pk },
        ProjectionExpression: 'pk, sk, personHash',
        Limit: 500,
      }),
    );
    const items = (page.Items ?? []) as { pk: string; sk: string; personHash?: unknown }[];
    if (items.length === 0) return deleted;
    // A submission holding a person's place (docs/forms.md#one-answer-per-person) takes it
    // along: the place is in a partition of its own. Places first, so a purge cut short
    // and retried still finds their submissions.
    const places = items.flatMap((item) =>
      typeof item.personHash === 'string' ? [personPlaceKey(formId, item.personHash)] : [],
    );
    for (let i = 0; i < places.length; i += 25) await deleteBatch(places.slice(i, i + 25));
    const keys = items.map(({ pk, sk }) => ({ pk, sk }));
    const batches: { pk: string; sk: string }[][] = [];
    for (let i = 0; i < keys.length; i += 25) batches.push(keys.slice(i, i + 25));
    await Promise.all(batches.map((batch) => deleteBatch(batch)));
    deleted += keys.length;
  }
}

function deleteBatch(keys: { pk: string; sk: string }[]): Promise<void> {
  return batchWriteAll(keys.map((Key) => ({ DeleteRequest: { Key } })));
}
