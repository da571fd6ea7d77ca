/**
 * A MODEL of DynamoDB's transaction conflicts, for `npm run bench:contention`
 * only. DynamoDB Local runs transactions one at a time, so two transactions
 * on one item never overlap there and the store's `TransactionConflict`
 * retries never run. DynamoDB's rule, modelled here: a TransactWriteItems
 * that names an item (same table, pk and sk) which another transaction still
 * holds is cancelled as a whole, every other transaction unaffected.
 *
 * How it hooks in: one middleware on the handlers' DynamoDB client
 * (`dynamodb` of `lambdas/store/client.ts`, a module singleton; the document
 * client shares its middleware stack), placed innermost, after the SDK's
 * retry, signing and deserializer middlewares, where the HTTP request goes
 * out. A conflicting transaction never reaches DynamoDB Local: the model
 * answers it with the HTTP response DynamoDB sends (400, `__type`
 * `TransactionCanceledException`, one cancellation reason per item,
 * `TransactionConflict` on the held ones, `None` on the others), and the
 * SDK's own deserializer turns that into the `TransactionCanceledException`
 * the store's retry logic sees, exactly as from AWS.
 *
 * What "holds" means (an item write holds its item while in flight and a
 * few milliseconds after it commits):
 * - a modelled time in flight (`inFlightMs` a number; the bench's default,
 *   10 ms): an admitted transaction holds its items for `inFlightMs +
 *   holdMs` from the moment it is sent, whatever DynamoDB Local then takes,
 *   so conflicts follow a DynamoDB-like duration, not the emulator's queue;
 * - the real time in flight (`inFlightMs: 'real'`): from the moment it is
 *   sent until DynamoDB Local answers, plus `holdMs` after a commit (a
 *   cancelled or failed one releases its items at once). That in-flight part
 *   is DynamoDB Local's answer time with every queue in front of it (the
 *   SDK's 50 sockets, the JVM's serial execution): tens to hundreds of
 *   milliseconds under load, against DynamoDB's ~10, so it overstates
 *   conflicts on every item, even items only a few posts share.
 *
 * Not modelled: single-item writes (PutItem, UpdateItem, DeleteItem) against
 * an item a transaction holds (DynamoDB answers those with
 * `TransactionConflictException`; the submit path makes none on the items
 * its transaction writes), which of two overlapping transactions DynamoDB
 * cancels (here always the later one; a cancelled transaction holds
 * nothing), and the per-item or per-partition write ceiling (≈ 1,000 write
 * units a second): the model counts each item's commits per second instead,
 * so a caller can compare the peak against the ceiling.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS } from '#store/schema.ts';

export interface ContentionModelOptions {
  /** How long an item stays held after its transaction committed. */
  holdMs: number;
  /** Modelled time in flight, or `real`: DynamoDB Local's own answer time. */
  inFlightMs: number | 'real';
}

/** What kind of item a key is, by the store's key layout (lambdas/store/keys.ts). */
export type ItemKind = 'form' | 'usage' | 'submission' | 'duplicateMark' | 'spamQuota' | 'other';

export interface ContentionStats {
  /** TransactWriteItems requests that reached the model (every SDK attempt). */
  transactions: number;
  /** Sent on to DynamoDB Local. */
  admitted: number;
  /** Cancelled by the model with `TransactionConflict`. */
  conflicts: number;
  /** Per kind of item: cancelled transactions that met a held item of that kind. */
  conflictsOn: Record<ItemKind, number>;
  /** Admitted transactions DynamoDB Local committed (HTTP 200). */
  committed: number;
  /** Milliseconds from send to DynamoDB Local's answer, admitted transactions. */
  inFlightMs: number[];
  /** Per item: committed transactions per whole second (of the model's commit time) of the run. */
  commitsPerSecond: Map<string, Map<number, number>>;
  /**
   * Per partition key: item writes (Put, Update, Delete; not ConditionCheck)
   * of committed transactions. DynamoDB gives one partition about 1,000 WCU a
   * second, and the model does not hold posts to it: these say how near.
   */
  writesPerPartition: Map<string, number>;
}

export interface ContentionModel {
  stats: ContentionStats;
  /** Clears the counters and every hold (between bench cells). */
  reset(): void;
}

const emptyKinds = (): Record<ItemKind, number> => ({
  form: 0,
  usage: 0,
  submission: 0,
  duplicateMark: 0,
  spamQuota: 0,
  other: 0,
});

type AttributeValue = Record<string, unknown>;
type WireItem = Record<string, { TableName: string; Key?: AttributeValue; Item?: AttributeValue }>;

/** The item a wire-format transaction entry writes or checks: `table \0 pk \0 sk`. */
export function itemOf(entry: WireItem): string {
  const request = Object.values(entry)[0]!;
  const key = request.Key ?? request.Item ?? {};
  const part = (name: string) => JSON.stringify(key[name] ?? null);
  return `${request.TableName}\u0000${part(TABLE_KEYS.partitionKey)}\u0000${part(TABLE_KEYS.sortKey)}`;
}

/** The kind of item behind an `itemOf` string. */
export function kindOf(item: string): ItemKind {
  const [, pkJson, skJson] = item.split('\u0000');
  const pk = (JSON.parse(pkJson!) as { S?: string } | null)?.S ?? '';
  const sk = (JSON.parse(skJson!) as { S?: string } | null)?.S ?? '';
  // The form item and its counter shards; the column catalogue is `other`.
  if (pk.startsWith('FORM#') && (sk === 'FORM' || sk.startsWith('FORM#COUNT#'))) return 'form';
  if (pk.startsWith('TEAM#') && sk.startsWith('USAGE#')) return 'usage';
  if (pk.startsWith('FORM#') && sk.startsWith('SUB#')) return 'submission';
  if (pk.startsWith('FORM#') && sk.startsWith('SPAM#')) return 'spamQuota';
  if (pk.startsWith('DUP#')) return 'duplicateMark';
  return 'other';
}

/** The partition key of an `itemOf` string. */
export function partitionOf(item: string): string {
  const [, pkJson] = item.split('\u0000');
  return (JSON.parse(pkJson!) as { S?: string } | null)?.S ?? pkJson!;
}

/** A readable name for an `itemOf` string: `pk / sk`. */
export function nameOf(item: string): string {
  const [, pkJson, skJson] = item.split('\u0000');
  const s = (json: string) => (JSON.parse(json) as { S?: string } | null)?.S ?? json;
  return `${s(pkJson!)} / ${s(skJson!)}`;
}

/**
 * The HTTP answer DynamoDB gives a transaction cancelled because some of its
 * items are in another transaction: one reason per item, in request order.
 */
export function conflictResponse(conflicting: readonly boolean[]) {
  const codes = conflicting.map((held) => (held ? 'TransactionConflict' : 'None'));
  const body = {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
    CancellationReasons: conflicting.map((held) =>
      held
        ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
        : { Code: 'None' },
    ),
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  };
  return {
    statusCode: 400,
    reason: 'Bad Request',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': `contention-model-${crypto.randomUUID()}`,
    },
    body: new TextEncoder().encode(JSON.stringify(body)),
  };
}

/**
 * Puts the model on `client` (the handlers' DynamoDB client). Installing it
 * twice on one client replaces the first (same middleware name).
 */
export function installContentionModel(
  client: DynamoDBClient,
  options: ContentionModelOptions,
): ContentionModel {
  /** Item → until when it is held (performance.now() ms; Infinity while in flight). */
  const heldUntil = new Map<string, number>();
  const freshStats = (): ContentionStats => ({
    transactions: 0,
    admitted: 0,
    conflicts: 0,
    conflictsOn: emptyKinds(),
    committed: 0,
    inFlightMs: [],
    commitsPerSecond: new Map(),
    writesPerPartition: new Map(),
  });
  const stats = freshStats();
  let epoch = performance.now();

  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      const request = args.request as { body?: unknown };
      const text =
        typeof request.body === 'string'
          ? request.body
          : new TextDecoder().decode(request.body as Uint8Array);
      const wire = JSON.parse(text) as { TransactItems: WireItem[] };
      const items = wire.TransactItems.map(itemOf);
      const sent = performance.now();
      stats.transactions += 1;
      const conflicting = items.map((item) => (heldUntil.get(item) ?? -1) > sent);
      if (conflicting.some(Boolean)) {
        stats.conflicts += 1;
        const kinds = new Set(items.filter((_, i) => conflicting[i]).map(kindOf));
        for (const kind of kinds) stats.conflictsOn[kind] += 1;
        return { response: conflictResponse(conflicting) } as Awaited<ReturnType<typeof next>>;
      }
      stats.admitted += 1;
      const real = options.inFlightMs === 'real';
      const until = real
        ? Number.POSITIVE_INFINITY
        : sent + (options.inFlightMs as number) + options.holdMs;
      for (const item of items) heldUntil.set(item, until);
      let committed = false;
      try {
        const result = await next(args);
        committed = (result.response as { statusCode?: number }).statusCode === 200;
        return result;
      } finally {
        const answered = performance.now();
        stats.inFlightMs.push(answered - sent);
        if (committed) {
          stats.committed += 1;
          // When the model has it commit: DynamoDB Local answers queued transactions in bursts.
          const commitAt = real ? answered : sent + (options.inFlightMs as number);
          const second = Math.floor((commitAt - epoch) / 1000);
          for (const entry of wire.TransactItems) {
            if ('ConditionCheck' in entry) continue;
            const partition = partitionOf(itemOf(entry));
            stats.writesPerPartition.set(
              partition,
              (stats.writesPerPartition.get(partition) ?? 0) + 1,
            );
          }
          for (const item of items) {
            const perSecond = stats.commitsPerSecond.get(item) ?? new Map<number, number>();
            perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
            stats.commitsPerSecond.set(item, perSecond);
          }
        }
        if (real) {
          const release = committed ? answered + options.holdMs : answered;
          // Held (Infinity) since it was sent, so no other transaction took it meanwhile.
          for (const item of items) heldUntil.set(item, release);
        }
      }
    },
    { step: 'deserialize', priority: 'low', name: 'contentionModel', override: true },
  );

  const reset = () => {
    heldUntil.clear();
    Object.assign(stats, freshStats());
    epoch = performance.now();
  };
  return { stats, reset };
}
