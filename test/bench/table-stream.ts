/**
 * Reads the local table's stream (NEW_AND_OLD_IMAGES) from a mark to its
 * end, for `npm run bench:partitions`: each record is one item write that
 * committed, with the item before and after it, the images the write units
 * are computed from. A reader of its own beside the stack's pollers.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { Item } from './capacity-units.ts';

export interface ItemChange {
  pk: string;
  sk: string;
  sequence: string;
  before?: Item;
  after?: Item;
}

export interface TableStream {
  /** Every record written since the last mark, in sequence order per shard; moves the mark. */
  readOn(): Promise<ItemChange[]>;
}

/** Sequence numbers are decimal strings of varying length: compare them as numbers. */
export const bySequence = (a: string, b: string) =>
  a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length;

/** Opens the stream of `tableName` with its mark at its current end. */
export async function openTableStream(options: {
  endpoint: string;
  region: string;
  tableName: string;
}): Promise<TableStream> {
  const config = {
    endpoint: options.endpoint,
    region: options.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const table = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  const described = await table.send(new DescribeTableCommand({ TableName: options.tableName }));
  table.destroy();
  const streamArn = described.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`${options.tableName} has no stream`);
  /** The last sequence number read, per shard. */
  const last = new Map<string, string>();

  const readAll = async (): Promise<ItemChange[]> => {
    const changes: ItemChange[] = [];
    let exclusiveStart: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStart }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        const shardId = shard.ShardId!;
        const after = last.get(shardId);
        let { ShardIterator: iterator } = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ...(after
              ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
              : { ShardIteratorType: 'TRIM_HORIZON' }),
          }),
        );
        // An open shard answers an empty page at its end; a closed one no next iterator.
        while (iterator) {
          const page = await streams.send(
            new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }),
          );
          for (const record of page.Records ?? []) {
            const data = record.dynamodb!;
            changes.push({
              pk: data.Keys?.pk?.S ?? '',
              sk: data.Keys?.sk?.S ?? '',
              sequence: data.SequenceNumber!,
              before: data.OldImage as Item | undefined,
              after: data.NewImage as Item | undefined,
            });
            last.set(shardId, data.SequenceNumber!);
          }
          if ((page.Records ?? []).length === 0) break;
          iterator = page.NextShardIterator;
        }
      }
      exclusiveStart = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStart);
    return changes.sort((a, b) => bySequence(a.sequence, b.sequence));
  };

  await readAll();
  return { readOn: readAll };
}
