import {
  type _Record,
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '#events/stream-dispatcher.ts';
import { startStreamPoller } from '#lib/local/stream-poller.ts';
import { until as poll } from '#test/support/poll.ts';
import { workers } from '#workers';

// The local stream poller driving the real stream dispatcher (Powertools batch
// processor inside) over a stand-in stream of removed forms, which it hands on
// to the form purger's queue: a partial failure is retried from the failed
// record; a batch whose every record failed makes the handler throw, which
// the poller retries whole and finally hands to onFailure, as the event
// source mapping does (retries, bisect, on-failure queue). Only the SQS send
// is a stand-in, so a test can make it fail for one form.
const store = vi.hoisted(() => ({
  /** Called once per form handed on to the purger's queue, by form id. */
  purgeFormPartition: vi.fn<(formId: string) => Promise<number>>(),
}));
vi.mock('#aws/queues.ts', () => ({
  enqueue: async () => {},
  enqueueInOrder: async () => {},
  sendInOrder: async (_queue: string, messages: { body: string }[]) => {
    for (const message of messages) {
      await store.purgeFormPartition(JSON.parse(message.body).dynamodb.OldImage.id.S);
    }
  },
}));

const dispatcher = workers.find((worker) => worker.name === 'streamDispatcher')!;
if (dispatcher.trigger.kind !== 'tableStream') throw new Error('the dispatcher reads the stream');
const trigger = dispatcher.trigger;

function removedForm(formId: string, sequence: string): _Record {
  return {
    // Unique: the dispatcher remembers the records it did (recordDispatch `skipDone`).
    eventID: `e${sequence}-${crypto.randomUUID()}`,
    eventName: 'REMOVE',
    dynamodb: {
      SequenceNumber: sequence,
      Keys: { pk: { S: `FORM#${formId}` }, sk: { S: 'FORM' } },
      OldImage: { id: { S: formId }, entity: { S: 'form' } },
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** One open shard that serves `records` once, then nothing. */
function streamOf(records: _Record[]): DynamoDBStreamsClient {
  let served = false;
  return {
    send: async (command: unknown) => {
      if (command instanceof DescribeStreamCommand)
        return { StreamDescription: { Shards: [{ ShardId: 'shard-1', SequenceNumberRange: {} }] } };
      if (command instanceof GetShardIteratorCommand) return { ShardIterator: 'iterator' };
      if (command instanceof GetRecordsCommand) {
        const page = served ? [] : records;
        served = true;
        return { Records: page, NextShardIterator: 'iterator' };
      }
      throw new Error('unexpected command');
    },
  } as unknown as DynamoDBStreamsClient;
}

/** Polls `probe` (the tests' one poll) every 10 ms until it holds; throws when it never does. */
async function until(probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  await poll(probe, (ok) => ok, { timeoutMs, intervalMs: 10 });
}

beforeEach(() => {
  // The dispatcher's log and EMF lines are not what these tests look at.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
  store.purgeFormPartition.mockReset();
});

describe('local stream poller with a Powertools batch handler', () => {
  it('retries a partial failure from the failed record on; the records after it that the dispatcher did already are not done again', async () => {
    let failuresLeft = 1;
    store.purgeFormPartition.mockImplementation(async (formId) => {
      if (formId === 'f2' && failuresLeft-- > 0) throw new Error('throttled');
      return 1;
    });
    const failed: unknown[] = [];
    const poller = startStreamPoller({
      client: streamOf([removedForm('f1', '1'), removedForm('f2', '2'), removedForm('f3', '3')]),
      streamArn: 'arn:stream',
      consumer: { name: 'streamDispatcher', handler, ...trigger, batchSize: 10 },
      intervalMs: 10,
      onFailure: (records) => {
        failed.push(records);
      },
    });
    try {
      await until(() => store.purgeFormPartition.mock.calls.length >= 4);
      await new Promise((resolve) => setTimeout(resolve, 100)); // nothing else may come
    } finally {
      await poller.stop();
    }
    // f3 came back with the retry from f2, and was handed on the first time already.
    expect(store.purgeFormPartition.mock.calls.map(([id]) => id)).toEqual(['f1', 'f2', 'f3', 'f2']);
    expect(failed).toEqual([]);
  });

  it('takes the thrown full-batch failure as a failed invocation: retried whole, then handed to onFailure', async () => {
    store.purgeFormPartition.mockRejectedValue(new Error('table unavailable'));
    const failed: { records: DynamoDBStreamEvent['Records']; reason: string }[] = [];
    const poller = startStreamPoller({
      client: streamOf([removedForm('f1', '1'), removedForm('f2', '2')]),
      streamArn: 'arn:stream',
      consumer: { name: 'streamDispatcher', handler, ...trigger, batchSize: 10 },
      intervalMs: 10,
      onFailure: (records, reason) => {
        failed.push({ records, reason });
      },
    });
    try {
      await until(() => failed.length > 0);
    } finally {
      await poller.stop();
    }
    expect(store.purgeFormPartition).toHaveBeenCalledTimes(2 * trigger.maxAttempts);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.records.map((record) => record.dynamodb?.SequenceNumber)).toEqual(['1', '2']);
    expect(failed[0]!.reason).toMatch(/All records failed processing/);
  });

  it('gives up a failing batch whose records are past the maximum record age, without the remaining attempts', async () => {
    store.purgeFormPartition.mockRejectedValue(new Error('table unavailable'));
    const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 86_400;
    const old = removedForm('f1', '1');
    old.dynamodb!.ApproximateCreationDateTime = new Date(twoDaysAgo * 1000);
    const failed: DynamoDBStreamEvent['Records'][] = [];
    const poller = startStreamPoller({
      client: streamOf([old]),
      streamArn: 'arn:stream',
      consumer: { name: 'streamDispatcher', handler, ...trigger, maxRecordAgeSeconds: 86_400 },
      intervalMs: 10,
      onFailure: (records) => {
        failed.push(records);
      },
    });
    try {
      await until(() => failed.length > 0);
    } finally {
      await poller.stop();
    }
    expect(trigger.maxAttempts).toBeGreaterThan(1);
    expect(store.purgeFormPartition).toHaveBeenCalledTimes(1);
  });
});
