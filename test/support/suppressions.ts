import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { stack } from './api.ts';
import { localStore } from './store.ts';

/**
 * Puts `count` addresses on a team's suppression list as the event worker writes them
 * (lambdas/store/suppressions.ts), straight into the test stack's table: a bounce for
 * each through the mailbox simulator would take a minute. Answers the addresses in the
 * list's order (by mailbox).
 */
export async function seedSuppressions(teamId: string, count: number): Promise<string[]> {
  const { documents } = await localStore();
  const tag = crypto.randomUUID().slice(0, 8);
  const addresses = Array.from(
    { length: count },
    (_, i) => `gone-${String(i).padStart(3, '0')}-${tag}@example.com`,
  );
  for (let i = 0; i < addresses.length; i += 25) {
    await documents.send(
      new BatchWriteCommand({
        RequestItems: {
          [stack().tableName]: addresses.slice(i, i + 25).map((email) => ({
            PutRequest: {
              Item: {
                pk: `TEAM#${teamId}`,
                sk: `SUPPRESSED#${email}`,
                entity: 'suppression',
                email,
                reason: 'bounce',
                bounceType: 'Permanent',
                at: new Date().toISOString(),
                formId: crypto.randomUUID(),
                submissionId: crypto.randomUUID(),
              },
            },
          })),
        },
      }),
    );
  }
  return addresses;
}
