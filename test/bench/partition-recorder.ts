/**
 * Records every request of the stack's one DynamoDB client
 * (`lambdas/store/client.ts`; every handler and worker of an in-process local
 * stack sends through it), for `npm run bench:partitions`: each item a write
 * names (table keys, Put/Update/Delete/ConditionCheck, in a transaction or
 * not), each read's partition key and units, which function sent it (the
 * local runtime's `currentLocalFunction`), and DynamoDB Local's own
 * `ConsumedCapacity` per table and per index: the middleware asks every
 * request for `ReturnConsumedCapacity: INDEXES`.
 *
 * It sits in the build step, after serialization: what it reads is the JSON
 * body that goes to DynamoDB Local, whatever the store's code built it with.
 * The item images (before and after each write) come from the table's stream
 * (./table-stream.ts), which also shows a write this client did not send.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { currentLocalFunction } from '#lib/local/lambda-runtime.ts';
import { INDEXES, TABLE_KEYS } from '#store/schema.ts';
import { type Item, itemSize, readUnits } from './capacity-units.ts';

export type WriteAction = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

/** One item a write request named. */
export interface ItemWrite {
  pk: string;
  sk: string;
  action: WriteAction;
  transactional: boolean;
  /** The function that sent it, or `outside` (the bench itself, the stack's start). */
  caller: string;
  /** performance.now() when the request went out and when its answer came. */
  sentAt: number;
  at: number;
  ok: boolean;
  /** Why the request failed (the error's name), when it did. */
  error?: string;
  /** A Put's item as sent, to size a write that failed (no stream record shows it). */
  sent?: Item;
}

/** The units one read spent on one partition key (the table's or an index's). */
export interface ItemRead {
  /** `table` or the index name. */
  on: string;
  partition: string;
  units: number;
  /** Local's figure (GetItem, Query) or computed from the items returned (BatchGetItem). */
  measured: boolean;
  caller: string;
  at: number;
  op: string;
}

/** DynamoDB Local's ConsumedCapacity, added up per caller and operation. */
export interface LocalUnits {
  requests: number;
  total: number;
  table: number;
  indexes: Record<string, number>;
}

export interface Recording {
  writes: ItemWrite[];
  reads: ItemRead[];
  /** Per `caller operation`. */
  local: Map<string, LocalUnits>;
  /** Requests of any kind seen, and when the last one answered. */
  requests: number;
  lastAnswerAt: number;
  inFlight: number;
  /** `caller operation` of the last request sent (progress lines name it). */
  lastCall: string;
  /** The recorder's own failures to read a request or answer (the bench reports them). */
  faults: string[];
}

const WRITES = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);
const READS = new Set(['GetItem', 'Query', 'BatchGetItem', 'TransactGetItems', 'Scan']);

interface ConsumedCapacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

type Body = Record<string, unknown>;

/** Installs the recorder on `client` (once: a second call replaces it, same name). */
export function recordDynamoDb(client: DynamoDBClient, tableName: string): Recording {
  const recording: Recording = {
    writes: [],
    reads: [],
    local: new Map(),
    requests: 0,
    lastAnswerAt: performance.now(),
    inFlight: 0,
    lastCall: '',
    faults: [],
  };
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers: Record<string, string>; body?: unknown };
      const op = String(request.headers?.['x-amz-target'] ?? '').split('.')[1] ?? '';
      if (!WRITES.has(op) && !READS.has(op)) return next(args);
      const sent = request.body;
      const body = JSON.parse(
        sent instanceof Uint8Array ? new TextDecoder().decode(sent) : String(sent),
      ) as Body;
      body.ReturnConsumedCapacity = 'INDEXES';
      request.body = new TextEncoder().encode(JSON.stringify(body));
      const caller = currentLocalFunction() ?? 'outside';
      const sentAt = performance.now();
      recording.lastCall = `${caller} ${op}`;
      recording.requests += 1;
      recording.inFlight += 1;
      try {
        const result = await next(args);
        const at = performance.now();
        const output = result.output as unknown as Body;
        // A fault of the recorder's own is counted, never passed on to the handler.
        try {
          addLocal(recording, `${caller} ${op}`, output.ConsumedCapacity);
          if (WRITES.has(op)) {
            for (const write of namedWrites(op, body, tableName)) {
              recording.writes.push({ ...write, caller, sentAt, at, ok: true });
            }
          } else {
            recording.reads.push(...namedReads(op, body, output, tableName, caller, at));
          }
        } catch (fault) {
          recording.faults.push(`${caller} ${op}: ${String(fault)}`);
        }
        return result;
      } catch (error) {
        const at = performance.now();
        try {
          if (WRITES.has(op)) {
            const name = (error as Error).name;
            for (const write of namedWrites(op, body, tableName)) {
              recording.writes.push({ ...write, caller, sentAt, at, ok: false, error: name });
            }
          }
        } catch (fault) {
          recording.faults.push(`${caller} ${op}: ${String(fault)}`);
        }
        throw error;
      } finally {
        recording.inFlight -= 1;
        recording.lastAnswerAt = performance.now();
      }
    },
    { step: 'build', priority: 'high', name: 'partitionRecorder', override: true },
  );
  return recording;
}

function addLocal(recording: Recording, key: string, consumed: unknown) {
  const units = recording.local.get(key) ?? { requests: 0, total: 0, table: 0, indexes: {} };
  units.requests += 1;
  for (const entry of [consumed].flat() as (ConsumedCapacity | undefined)[]) {
    if (!entry) continue;
    units.total += entry.CapacityUnits ?? 0;
    units.table += entry.Table?.CapacityUnits ?? 0;
    for (const [index, { CapacityUnits }] of Object.entries(entry.GlobalSecondaryIndexes ?? {})) {
      units.indexes[index] = (units.indexes[index] ?? 0) + (CapacityUnits ?? 0);
    }
  }
  recording.local.set(key, units);
}

const text = (value: unknown) => (value as { S?: string } | undefined)?.S ?? '';

/**
 * An answer's item as the wire carries it: the document client's answers are
 * already plain values when they pass the build step, the low-level client's not.
 */
function wireItem(answer: Body): Item {
  return typeof answer[TABLE_KEYS.partitionKey] === 'string'
    ? (marshall(answer, { removeUndefinedValues: true }) as Item)
    : (answer as Item);
}

function keyOf(item: Body | undefined): { pk: string; sk: string } {
  return { pk: text(item?.[TABLE_KEYS.partitionKey]), sk: text(item?.[TABLE_KEYS.sortKey]) };
}

type NamedWrite = Pick<ItemWrite, 'pk' | 'sk' | 'action' | 'transactional' | 'sent'>;

/** The items a write request names, in its own table. */
function namedWrites(op: string, body: Body, tableName: string): NamedWrite[] {
  const single = (action: WriteAction, keyed: Body, sent?: Item): NamedWrite => ({
    ...keyOf(keyed),
    action,
    transactional: op === 'TransactWriteItems',
    sent,
  });
  switch (op) {
    case 'PutItem':
      return body.TableName === tableName
        ? [single('Put', body.Item as Body, body.Item as Item)]
        : [];
    case 'UpdateItem':
      return body.TableName === tableName ? [single('Update', body.Key as Body)] : [];
    case 'DeleteItem':
      return body.TableName === tableName ? [single('Delete', body.Key as Body)] : [];
    case 'BatchWriteItem': {
      const requests = ((body.RequestItems as Body)?.[tableName] ?? []) as Body[];
      return requests.map((r) =>
        r.PutRequest
          ? single('Put', (r.PutRequest as Body).Item as Body, (r.PutRequest as Body).Item as Item)
          : single('Delete', (r.DeleteRequest as Body).Key as Body),
      );
    }
    case 'TransactWriteItems':
      return ((body.TransactItems ?? []) as Body[]).flatMap((entry) => {
        const [action, inner] = Object.entries(entry)[0] as [WriteAction, Body];
        if (inner.TableName !== tableName) return [];
        const keyed = (action === 'Put' ? inner.Item : inner.Key) as Body;
        return [single(action, keyed, action === 'Put' ? (inner.Item as Item) : undefined)];
      });
    default:
      return [];
  }
}

/** The partition key value a Query's key condition names. */
function queriedPartition(body: Body): { on: string; partition: string } {
  const index = body.IndexName as keyof typeof INDEXES | undefined;
  const attribute = index ? INDEXES[index].partitionKey : TABLE_KEYS.partitionKey;
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  for (const [, name, value] of String(body.KeyConditionExpression).matchAll(
    /(#?\w+)\s*=\s*(:\w+)/g,
  )) {
    if ((names[name!] ?? name) === attribute) {
      return { on: index ?? 'table', partition: text(values[value!]) };
    }
  }
  return { on: index ?? 'table', partition: '?' };
}

function namedReads(
  op: string,
  body: Body,
  output: Body,
  tableName: string,
  caller: string,
  at: number,
): ItemRead[] {
  const measured = ([output.ConsumedCapacity].flat() as (ConsumedCapacity | undefined)[]).reduce(
    (sum, entry) => sum + (entry?.CapacityUnits ?? 0),
    0,
  );
  const read = (on: string, partition: string, units: number, isMeasured: boolean): ItemRead => ({
    on,
    partition,
    units,
    measured: isMeasured,
    caller,
    at,
    op,
  });
  switch (op) {
    case 'GetItem':
      return [read('table', keyOf(body.Key as Body).pk, measured, true)];
    case 'Query': {
      const { on, partition } = queriedPartition(body);
      return [read(on, partition, measured, true)];
    }
    case 'BatchGetItem': {
      const asked = (body.RequestItems as Record<string, Body>)?.[tableName];
      const found = ((output.Responses as Record<string, Body[]>)?.[tableName] ?? []).map(
        (answer) => {
          const item = wireItem(answer);
          return { ...keyOf(item as Body), size: itemSize(item) };
        },
      );
      const consistent = asked?.ConsistentRead === true;
      return ((asked?.Keys ?? []) as Body[]).map((key) => {
        const { pk, sk } = keyOf(key);
        const hit = found.find((item) => item.pk === pk && item.sk === sk);
        return read('table', pk, readUnits(hit?.size ?? 0, consistent), false);
      });
    }
    case 'TransactGetItems': {
      const entries = (body.TransactItems ?? []) as Body[];
      return entries.map((entry) =>
        read('table', keyOf((entry.Get as Body).Key as Body).pk, measured / entries.length, true),
      );
    }
    default:
      return [read('table', '(scan)', measured, true)];
  }
}
