import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { currentRequestId } from '#log';

export interface DynamoDbMeter {
  /** Sequential round trips: a call starting while none is in flight opens a new one. */
  rounds: number;
  calls: string[];
  /** Each call's ConsistentRead, in the order of `calls` (undefined: not asked). */
  consistent: (boolean | undefined)[];
  /** Capacity units consumed (every call is asked to return them). */
  capacity: number;
  /** The same, split by the kind of call. */
  readCapacity: number;
  writeCapacity: number;
  /** Capacity units by command name. */
  byCommand: Record<string, number>;
  inFlight: number;
  /** Calls left out by the meter's filter (the local pollers' and workers', say). */
  otherCalls: number;
}

/**
 * Counts only the calls of HTTP requests (a route's handler runs with its
 * request id in the log scope), not those of the local stack's pollers and
 * workers that share this process's client.
 */
export const routeCallsOnly = () => currentRequestId() !== undefined;

/**
 * A middleware on the service's one DynamoDB client that counts sequential
 * round trips (parallel calls share one), names every call and adds up the
 * capacity each consumed.
 */
export function meterDynamoDb(client: DynamoDBClient, counts: () => boolean = () => true) {
  const meter = fresh();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!counts()) {
        meter.otherCalls += 1;
        return next(args);
      }
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      if (meter.inFlight === 0) meter.rounds += 1;
      meter.inFlight += 1;
      meter.calls.push(context.commandName ?? 'unknown');
      meter.consistent.push((args.input as { ConsistentRead?: boolean }).ConsistentRead);
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
        const reads = READS.has(context.commandName ?? '');
        for (const entry of [consumed].flat()) {
          const units = (entry as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0;
          meter.capacity += units;
          const name = context.commandName ?? 'unknown';
          meter.byCommand[name] = (meter.byCommand[name] ?? 0) + units;
          if (reads) meter.readCapacity += units;
          else meter.writeCapacity += units;
        }
        return result;
      } finally {
        meter.inFlight -= 1;
      }
    },
    { step: 'initialize', name: 'roundTripMeter', override: true },
  );
  const reset = () => Object.assign(meter, fresh());
  return { meter, reset };
}

function fresh(): DynamoDbMeter {
  return {
    rounds: 0,
    calls: [],
    consistent: [],
    capacity: 0,
    readCapacity: 0,
    writeCapacity: 0,
    byCommand: {},
    inFlight: 0,
    otherCalls: 0,
  };
}

const READS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);

/**
 * Waits until the calls the meter leaves out have stopped for `quietMs`: the
 * stream fan-out and the workers are done with what a seed wrote.
 */
export async function untilIdle(meter: DynamoDbMeter, quietMs = 2000, timeoutMs = 600_000) {
  const started = Date.now();
  let seen = -1;
  while (Date.now() - started < timeoutMs) {
    if (meter.otherCalls === seen) return;
    seen = meter.otherCalls;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
  throw new Error(`the stack was still busy after ${timeoutMs} ms`);
}
