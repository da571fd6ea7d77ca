import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { type BounceType, suppressionAddress } from '#domain/email-events.ts';
import { documents } from './client.ts';
import { SUPPRESSION_PREFIX, stripPlumbing, suppressionKey, teamKey } from './keys.ts';
import { getItem } from './table.ts';

/** One address the team's forms no longer email (docs/delivery.md#suppressed-addresses). */
export interface Suppression {
  email: string;
  reason: 'bounce' | 'complaint';
  bounceType?: BounceType;
  /** When SES reported it. */
  at: string;
  /** The email that bounced or was complained about. */
  formId: string;
  submissionId: string;
}

/** Adds (or refreshes) the address; a later event of the same address replaces the entry. */
export async function suppress(teamId: string, entry: Suppression): Promise<void> {
  await documents.send(
    new PutCommand({
      TableName: config.tableName,
      Item: {
        ...suppressionKey(teamId, suppressionAddress(entry.email)),
        entity: 'suppression',
        ...entry,
      },
    }),
  );
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

/** Lifts an entry; false when the address was not on the list. */
export async function liftSuppression(teamId: string, email: string): Promise<boolean> {
  const { Attributes } = await documents.send(
    new DeleteCommand({
      TableName: config.tableName,
      Key: suppressionKey(teamId, suppressionAddress(email)),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}
