import {
  type _Record,
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { type FilterPattern, matchesPattern } from '#domain/event-filter.ts';
import {
  invokeWithTimeout,
  type LambdaHandler,
  LOCAL_REGION,
  lambdaContext,
} from './lambda-runtime.ts';

/**
 * Feeds a DynamoDB Local stream into a handler the way a Lambda event source
 * mapping does: Lambda's event shape, the mapping's filter, batches per
 * shard in order, partial batch failures retried from the first failed
 * record, and after `maxAttempts`, or once its oldest record is older than
 * `maxRecordAgeSeconds`, the batch goes to `onFailure` (the mapping's
 * on-failure destination) and the shard moves on.
 */
export interface StreamConsumer {
  name: string;
  handler: LambdaHandler;
  /** The mapping's filters, ORed: a record any of them takes is handed over. */
  filters?: readonly FilterPattern[];
  batchSize?: number;
  timeoutSeconds?: number;
  maxAttempts?: number;
  /** A record older than this is not tried again, like the mapping's MaximumRecordAgeInSeconds. */
  maxRecordAgeSeconds?: number;
}

export interface StreamPollerOptions {
  client: DynamoDBStreamsClient;
  streamArn: string;
  consumer: StreamConsumer;
  /** The shortest time between the starts of two reads (default 100 ms). */
  intervalMs?: number;
  /**
   * How long it waits after a read that found nothing before reading again unless woken
   * (`wake()`: the local stack wakes it after each of its own writes). Default: `intervalMs`.
   */
  idleIntervalMs?: number;
  onFailure?: (
    failed: DynamoDBStreamEvent['Records'],
    error: string,
    batch: GivenUpBatch,
  ) => void | Promise<void>;
  /**
   * Where the poller keeps, per shard, the last record it has handed over
   * (like a mapping's checkpoint): a restart goes on after it, and reads
   * shards it never saw from their start. Without it, or with none saved
   * yet, the poller starts at the stream's end (LATEST).
   */
  positions?: StreamPositions;
}

/** Where a batch given up came from, and why: what Lambda's on-failure record says of it. */
export interface GivenUpBatch {
  shardId: string;
  attempts: number;
  condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
}

/** The consumer's last handled sequence number per shard, kept somewhere that outlives a restart. */
export interface StreamPositions {
  load(): Record<string, string>;
  save(positions: Record<string, string>): void;
}

interface ShardCursor {
  iterator: string | undefined;
  done: boolean;
  shardId?: string;
}

/** The longest the poller goes without reading the stream's shard list. */
const DISCOVER_EVERY_MS = 1000;

export function startStreamPoller(options: StreamPollerOptions): {
  /** A write may have reached the stream: read it soon (after `intervalMs` since the last read). */
  wake(): void;
  stop(): Promise<void>;
} {
  const { client, streamArn, consumer } = options;
  const shards = new Map<string, ShardCursor>();
  let stopped = false;
  let firstPass = true;
  const interval = options.intervalMs ?? 100;
  const idleInterval = options.idleIntervalMs ?? interval;
  // A wake during a read makes the next wait the short one; a wake during a wait shortens it.
  let woken = false;
  let shorten: (() => void) | undefined;
  // The shard list is read again when a shard ends, when none is open, and at least every
  // second; reading it at every poll (DescribeStream 10 times a second for each of the
  // stream's consumers) kept an idle local stack's JVM and runner busy.
  let discoveredAt = Number.NEGATIVE_INFINITY;
  let shardEnded = false;
  const shouldDiscover = () =>
    shardEnded ||
    performance.now() - discoveredAt >= DISCOVER_EVERY_MS ||
    ![...shards.values()].some((cursor) => !cursor.done);
  const positions = options.positions?.load() ?? {};
  // A saved position means this consumer ran before: what came since is not history to skip.
  const resuming = Object.keys(positions).length > 0;

  async function discoverShards(): Promise<void> {
    let exclusiveStart: string | undefined;
    do {
      const { StreamDescription } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStart }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        const id = shard.ShardId!;
        if (shards.has(id)) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        const after = positions[id];
        if (firstPass && !resuming && closed) {
          // Like StartingPosition LATEST: history before the poller started is not replayed.
          shards.set(id, { iterator: undefined, done: true });
          continue;
        }
        const { ShardIterator } = await client.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: id,
            ...(after
              ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
              : { ShardIteratorType: firstPass && !resuming ? 'LATEST' : 'TRIM_HORIZON' }),
          }),
        );
        shards.set(id, { iterator: ShardIterator, done: !ShardIterator, shardId: id });
      }
      exclusiveStart = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStart);
    firstPass = false;
    discoveredAt = performance.now();
    shardEnded = false;
  }

  /** Reads a page like the event source mapping does, filters it, then hands over batches. Returns whether records came. */
  async function pollShard(cursor: ShardCursor): Promise<boolean> {
    if (cursor.done || !cursor.iterator) return false;
    const page = await client.send(
      new GetRecordsCommand({ ShardIterator: cursor.iterator, Limit: 1000 }),
    );
    cursor.iterator = page.NextShardIterator;
    if (!cursor.iterator) {
      cursor.done = true;
      shardEnded = true;
    }
    const records = (page.Records ?? []).map((record) => toLambdaRecord(record, streamArn));
    const filters = consumer.filters;
    const selected = filters
      ? records.filter((record) => filters.some((filter) => matchesPattern(record, filter)))
      : records;
    const size = consumer.batchSize ?? 100;
    for (let i = 0; i < selected.length; i += size) {
      await deliver(selected.slice(i, i + size), cursor.shardId ?? '');
    }
    // Handed over (or sent to the failure destination): a restart goes on after the page.
    const last = records.at(-1)?.dynamodb?.SequenceNumber;
    if (last && cursor.shardId && options.positions) {
      positions[cursor.shardId] = last;
      options.positions.save(positions);
    }
    return records.length > 0;
  }

  /** Whether the batch holds a record past its age limit (creation times are in seconds). */
  function tooOld(records: DynamoDBStreamEvent['Records']): boolean {
    if (consumer.maxRecordAgeSeconds === undefined) return false;
    const oldest = Math.min(
      ...records.map((r) => r.dynamodb?.ApproximateCreationDateTime ?? Infinity),
    );
    return Date.now() / 1000 - oldest > consumer.maxRecordAgeSeconds;
  }

  async function deliver(records: DynamoDBStreamEvent['Records'], shardId: string): Promise<void> {
    let pending = records;
    const maxAttempts = consumer.maxAttempts ?? 3;
    for (let attempt = 1; pending.length > 0; attempt++) {
      let failedFrom: number;
      let reason: string;
      try {
        const result = await invokeWithTimeout<
          { batchItemFailures?: { itemIdentifier: string }[] } | undefined
        >(
          consumer.handler,
          { Records: pending },
          lambdaContext(consumer.name, consumer.timeoutSeconds ?? 30),
          consumer.timeoutSeconds ?? 30,
        );
        const failures = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        if (failures.size === 0) return;
        failedFrom = pending.findIndex((r) => failures.has(r.dynamodb?.SequenceNumber ?? ''));
        if (failedFrom < 0) failedFrom = 0;
        reason = 'partial batch failure';
      } catch (error) {
        failedFrom = 0;
        reason = error instanceof Error ? error.message : String(error);
      }
      pending = pending.slice(failedFrom);
      const old = tooOld(pending);
      if (attempt >= maxAttempts || old) {
        const condition = old ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted';
        if (options.onFailure) {
          await Promise.resolve(
            options.onFailure(pending, reason, { shardId, attempts: attempt, condition }),
          ).catch((error: unknown) =>
            process.stderr.write(
              `stream ${consumer.name}: ${pending.length} records given up (${reason}), and their on-failure record not kept: ${String(error)}\n`,
            ),
          );
        } else
          process.stderr.write(
            `stream ${consumer.name}: ${pending.length} records dropped after ${attempt} attempts: ${reason}\n`,
          );
        return;
      }
    }
  }

  /** Waits until `idleInterval` after the read that began at `readAt`, or `interval` after it once woken. */
  const pause = (readAt: number) =>
    new Promise<void>((resolve) => {
      let timer: ReturnType<typeof setTimeout>;
      const after = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(done, Math.max(0, readAt + ms - performance.now()));
      };
      const done = () => {
        shorten = undefined;
        resolve();
      };
      shorten = () => {
        shorten = undefined;
        woken = false;
        after(stopped ? 0 : interval);
      };
      after(woken ? interval : idleInterval);
      woken = false;
    });

  const loop = (async () => {
    while (!stopped) {
      const readAt = performance.now();
      try {
        if (shouldDiscover()) await discoverShards();
        let busy = false;
        for (const cursor of shards.values()) {
          if (stopped) break;
          busy = (await pollShard(cursor)) || busy;
        }
        // While records flow, read again `intervalMs` after this read began, not at once: a
        // read then takes what came meanwhile in one batch (Lambda reads a shard 4 times a
        // second). Read back to back, a busy stack's readers spent DynamoDB Local's CPU on
        // reads of a record or two.
        if (busy) woken = true;
      } catch (error) {
        if (!stopped) process.stderr.write(`stream ${consumer.name}: ${String(error)}\n`);
      }
      if (!stopped) await pause(readAt);
    }
  })();

  return {
    wake: () => {
      woken = true;
      shorten?.();
    },
    stop: async () => {
      stopped = true;
      shorten?.();
      await loop;
    },
  };
}

function toLambdaRecord(
  record: _Record,
  streamArn: string,
): DynamoDBStreamEvent['Records'][number] {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as 'INSERT' | 'MODIFY' | 'REMOVE',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: LOCAL_REGION,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: data.ApproximateCreationDateTime
        ? Math.floor(new Date(data.ApproximateCreationDateTime).getTime() / 1000)
        : undefined,
      Keys: data.Keys as never,
      NewImage: data.NewImage as never,
      OldImage: data.OldImage as never,
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType as never,
    },
  };
}
