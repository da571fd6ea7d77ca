import { randomUUIDv7 } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Submission, SubmissionMeta } from '#domain/submission-model.ts';

/**
 * Many submissions fast, straight into the table: items built by the store's
 * own `submissionItem()` (so they are exactly what the submit path stores,
 * folder index keys included), written with parallel BatchWrites, and the
 * form's folder counters and `submissionCount` moved by the exact totals in
 * one UpdateItem. The seeded answer names join the
 * form's column catalogue. Monthly usage and duplicate marks are not touched.
 *
 * The store modules read the environment when first used: call this after
 * `localStore()` (tests) or `startLocalStack()` (benches).
 */

export interface SeedOptions {
  formId: string;
  teamId: string;
  count: number;
  /** Every seeded submission's flags; default unread, not starred, not spam, not a test. */
  flags?: Partial<Pick<Submission, 'read' | 'starred' | 'isSpam' | 'isTest' | 'spamReason'>>;
  /** Answers of the i-th submission written (0 = oldest); default name, email and message. */
  data?: (i: number) => Record<string, string>;
  meta?: (i: number) => SubmissionMeta;
  /** When the i-th submission was received; default now. Its UUID v7 id carries that time. */
  receivedAt?: (i: number) => Date;
  /** BatchWrites in flight at once (25 items each). */
  parallel?: number;
  /** False: the form's column catalogue is not told the seeded names (a form from before it). */
  catalogue?: boolean;
  /**
   * A waitlist's signups: each keeps its sender's keyed hash, as the submit
   * path stores it (docs/privacy.md#the-signup-mark), from its `email` answer.
   */
  waitlist?: boolean;
}

export interface SeedResult {
  /** Ids of the seeded submissions, newest first (the order lists and exports show). */
  ids: string[];
}

const BATCH_ITEMS = 25;
/** Names set by one catalogue update (its expression stays far below 4 KB). */
const CATALOGUE_NAMES_A_WRITE = 50;

export async function seedSubmissions(options: SeedOptions): Promise<SeedResult> {
  const [
    { submissionItem },
    { foldersOf, countsAsSubmission },
    { folderCounter, formCounterKey },
    { batchWriteAll },
    { answerCatalogueUpdate },
  ] = await Promise.all([
    import('#store/submissions.ts'),
    import('#domain/submission-folders.ts'),
    import('#store/keys.ts'),
    import('#store/batches.ts'),
    import('#store/answer-columns.ts'),
  ]);
  const { documents } = await import('#store/client.ts');
  const { config } = await import('#config');
  const { emailHash } = await import('#domain/email-index.ts');
  const { submitterAddress } = await import('#domain/email-messages.ts');
  const signupHashOf = (submission: Submission) => {
    const address = options.waitlist ? submitterAddress(submission, { fields: null }) : undefined;
    return address ? emailHash(config.keyedHashSecret, options.teamId, address) : undefined;
  };
  const flags = { read: false, starred: false, isSpam: false, isTest: false, ...options.flags };
  const data = options.data ?? defaultData;
  const meta = options.meta ?? defaultMeta;
  const ids: string[] = [];
  // Each answer name and the earliest time a seeded submission carried it.
  const firstSeen = new Map<string, number>();

  // Items are built one batch at a time, so seeding 100,000 never holds them all.
  let next = 0;
  const writer = async () => {
    while (next < options.count) {
      const start = next;
      next = Math.min(options.count, next + BATCH_ITEMS);
      const items = [];
      for (let i = start; i < next; i++) {
        // As the submit path does: the time, then a UUID v7 drawn after it.
        const received = options.receivedAt?.(i);
        const createdAt = (received ?? new Date()).toISOString();
        const submission: Submission = {
          id: received ? uuidV7At(received) : randomUUIDv7(),
          formId: options.formId,
          data: data(i),
          meta: meta(i),
          ...flags,
          createdAt,
        };
        ids.push(submission.id);
        for (const name of Object.keys(submission.data)) {
          const at = Date.parse(createdAt);
          if (!(at >= (firstSeen.get(name) ?? Number.POSITIVE_INFINITY))) firstSeen.set(name, at);
        }
        const item = submissionItem(submission, options.teamId);
        const signupHash = signupHashOf(submission);
        if (signupHash) item.signupHash = signupHash;
        items.push({ PutRequest: { Item: item } });
      }
      await batchWriteAll(items);
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? 8 }, writer));

  const counters = foldersOf(flags).map(folderCounter);
  if (countsAsSubmission(flags)) counters.push('counted');
  if (options.count > 0) {
    await documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        // One of the form's counter shards: readers sum them.
        Key: formCounterKey(options.formId, 0),
        UpdateExpression: `ADD ${counters.map((_, i) => `#c${i} :n`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(counters.map((name, i) => [`#c${i}`, name])),
        ExpressionAttributeValues: { ':n': options.count },
      }),
    );
  }
  // As the storing transactions would have: the names join the form's column
  // catalogue, with the time each was first carried (unless a test wants a
  // form from before catalogues).
  if (options.catalogue !== false) {
    const byTime = new Map<number, string[]>();
    for (const [name, at] of firstSeen) {
      if (name !== '_invalid') byTime.set(at, [...(byTime.get(at) ?? []), name]);
    }
    for (const [at, names] of byTime) {
      for (let i = 0; i < names.length; i += CATALOGUE_NAMES_A_WRITE) {
        const { Update } = answerCatalogueUpdate(
          options.formId,
          names.slice(i, i + CATALOGUE_NAMES_A_WRITE),
          at,
        );
        await documents.send(new UpdateCommand({ TableName: config.tableName, ...Update! }));
      }
    }
  }
  return { ids: ids.sort().reverse() };
}

/** A UUID v7 whose 48-bit timestamp is `time` (the rest random, as v7 asks). */
function uuidV7At(time: Date): string {
  const hex = time.getTime().toString(16).padStart(12, '0');
  const random = randomUUIDv7();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}${random.slice(13)}`;
}

function defaultData(i: number): Record<string, string> {
  return {
    name: `Visitor ${i}`,
    email: `visitor${i}@example.com`,
    message: `Seeded message number ${i}, about as long as a real one.`,
  };
}

function defaultMeta(i: number): SubmissionMeta {
  return {
    ip: `198.51.100.${(i % 250) + 1}`,
    userAgent: 'seed-submissions/1',
    referrer: '',
    country: 'DE',
    deviceClass: 'desktop',
  };
}
