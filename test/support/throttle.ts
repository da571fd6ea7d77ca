import {
  type DynamoDBClient,
  ProvisionedThroughputExceededException,
} from '@aws-sdk/client-dynamodb';

/** A key attribute as a string, marshalled or not (as the document client's middleware left it). */
const plain = (value: unknown) =>
  typeof value === 'string' ? value : (value as { S?: string } | undefined)?.S;

/**
 * Makes the client fail the calls `when` picks with
 * ProvisionedThroughputExceededException, which DynamoDB Local never sends:
 * a fault injected on the client (a test using it says so in its name).
 * Returns what takes it away.
 */
export function throttle(
  client: DynamoDBClient,
  when: (call: { command: string; pk?: string; sk?: string }) => boolean,
): () => void {
  const name = `throttle-${crypto.randomUUID()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const key = (args.input as { Key?: { pk?: unknown; sk?: unknown } }).Key;
      const call = { command: context.commandName ?? '', pk: plain(key?.pk), sk: plain(key?.sk) };
      if (when(call)) {
        throw new ProvisionedThroughputExceededException({
          message: 'The level of configured provisioned throughput for the table was exceeded.',
          $metadata: { httpStatusCode: 400 },
        });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => client.middlewareStack.remove(name);
}
