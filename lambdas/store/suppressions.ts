import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { type BounceType, suppressionAddress } from '#domain/email-events.ts';
import { documents } from './client.ts';
import { SUPPRESSION_PREFIX, stripPlumbing, suppressionKey, teamKey } from './keys.ts';
import { getItem } from './table.ts';

/** One address the team's forms no longer email (docs/delivery.md#suppressed-addresses). */
export interface Suppression {
  /** Lower-cased, as the list shows it. */
  email: string;
  reason: 'bounce' | 'complaint';
  bounceType?: BounceType;
  /** When SES reported it. */
  at: string;
  /** The email that bounced or was complained about. */
  formId: string;
  submissionId: string;
}

/** An entry as stored, with the spellings SES suppressed of its mailbox. */
export interface StoredSuppression extends Suppression {
  /**
   * Each address of this mailbox exactly as SES's events gave it (`Ada+1@…`,
   * `ada@…`): SES keeps its own (tenant) entries case-preserved, one a spelling,
   * and lifts one only by that exact spelling. Empty on entries made before they
   * were kept (the lift then sends `email`).
   */
  sesAddresses: string[];
}

/**
 * Spellings kept a mailbox: past the first bounce our list stops the mailbox's
 * mail, so only the emails already on their way add more (a few at most).
 */
export const MAX_SES_SPELLINGS = 10;

/**
 * Adds (or refreshes) the mailbox's entry: a later event replaces its fields,
 * and `sesAddress`, the address as SES's event spelled it, joins the entry's
 * spellings (up to MAX_SES_SPELLINGS; past them the entry is refreshed alone).
 */
export async function suppress(
  teamId: string,
  entry: Suppression,
  sesAddress: string,
): Promise<void> {
  const fields = Object.fromEntries(
    Object.entries({ entity: 'suppression', ...entry }).filter(([, value]) => value !== undefined),
  );
  const names = Object.fromEntries(Object.keys(fields).map((name) => [`#${name}`, name]));
  const values = Object.fromEntries(Object.entries(fields).map(([name, v]) => [`:${name}`, v]));
  const set = `SET ${Object.keys(fields)
    .map((name) => `#${name} = :${name}`)
    .join(', ')}`;
  // A bounce has its type, a complaint none: a complaint replacing a bounce drops it.
  const remove = entry.bounceType === undefined ? ' REMOVE bounceType' : '';
  const update = (withSpelling: boolean) =>
    documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: suppressionKey(teamId, suppressionAddress(entry.email)),
        UpdateExpression: withSpelling
          ? `${set}${remove} ADD sesAddresses :spelling`
          : `${set}${remove}`,
        ConditionExpression: withSpelling
          ? 'attribute_not_exists(sesAddresses) OR contains(sesAddresses, :one) OR size(sesAddresses) < :max'
          : undefined,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: withSpelling
          ? {
              ...values,
              ':spelling': new Set([sesAddress]),
              ':one': sesAddress,
              ':max': MAX_SES_SPELLINGS,
            }
          : values,
      }),
    );
  try {
    await update(true);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    await update(false);
  }
}

/** The addresses of `candidates` the team suppresses (candidates as suppressionAddress gives them). */
export async function suppressedAmong(
  teamId: string,
  candidates: readonly string[],
): Promise<Set<string>> {
  const found = await Promise.all(
    [...new Set(candidates)].map(async (email) =>
      (await getItem(suppressionKey(teamId, email))) ? email : undefined,
    ),
  );
  return new Set(found.filter((email): email is string => email !== undefined));
}

/**
 * A page of the team's list, by mailbox (the key's order: one query, however long the
 * list); `after` is the previous page's `next`, the last mailbox it held.
 */
export async function listSuppressions(
  teamId: string,
  options: { limit: number; after?: string },
): Promise<{ suppressions: Suppression[]; next: string | null }> {
  const page = await documents.send(
    new QueryCommand({
      TableName: config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': teamKey(teamId).pk, ':prefix': SUPPRESSION_PREFIX },
      Limit: options.limit,
      ExclusiveStartKey: options.after ? suppressionKey(teamId, options.after) : undefined,
    }),
  );
  const items = page.Items ?? [];
  const last = items.at(-1);
  return {
    suppressions: items.map((item) => stripPlumbing<Suppression>(item)),
    next: page.LastEvaluatedKey && last ? String(last.sk).slice(SUPPRESSION_PREFIX.length) : null,
  };
}

/** The team's entry for the mailbox `email` reaches (any spelling), or undefined. */
export async function findSuppression(
  teamId: string,
  email: string,
): Promise<Suppression | undefined> {
  const item = await getItem(suppressionKey(teamId, suppressionAddress(email)));
  return item ? stripPlumbing<Suppression>(item) : undefined;
}

/** Lifts an entry: the entry lifted, or undefined when the address was not on the list. */
export async function liftSuppression(
  teamId: string,
  email: string,
): Promise<StoredSuppression | undefined> {
  const { Attributes } = await documents.send(
    new DeleteCommand({
      TableName: config.tableName,
      Key: suppressionKey(teamId, suppressionAddress(email)),
      ReturnValues: 'ALL_OLD',
    }),
  );
  if (!Attributes) return undefined;
  const { sesAddresses, ...entry } = stripPlumbing<Suppression & { sesAddresses?: Set<string> }>(
    Attributes,
  );
  return { ...entry, sesAddresses: [...(sesAddresses ?? [])].slice(0, MAX_SES_SPELLINGS) };
}
