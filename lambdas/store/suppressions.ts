import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { type BounceType, suppressionAddress } from '#domain/email-events.ts';
import { documents } from './client.ts';
import { SUPPRESSION_PREFIX, stripPlumbing, suppressionKey, teamKey } from './keys.ts';
import { getItem, itemsWithPrefix } from './table.ts';

/** One address the team's forms no longer email (docs/delivery.md#suppressed-addresses). */
export interface Suppression {
  /** Lower-cased, as the list shows it. */
  email: string;
  /**
   * The address exactly as SES's event gave it: SES keeps its own (tenant)
   * suppression entry case-preserved and lifts it only by that exact spelling.
   * Absent on entries made before it was kept (the lift then sends `email`).
   */
  sesAddress?: string;
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

export async function listSuppressions(teamId: string): Promise<Suppression[]> {
  const items = await itemsWithPrefix(teamKey(teamId).pk, SUPPRESSION_PREFIX);
  return items.map((item) => stripPlumbing<Suppression>(item));
}

/** Lifts an entry: the entry lifted, or undefined when the address was not on the list. */
export async function liftSuppression(
  teamId: string,
  email: string,
): Promise<Suppression | undefined> {
  const { Attributes } = await documents.send(
    new DeleteCommand({
      TableName: config.tableName,
      Key: suppressionKey(teamId, suppressionAddress(email)),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes && stripPlumbing<Suppression>(Attributes);
}
