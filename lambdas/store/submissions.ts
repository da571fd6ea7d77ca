import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { countsAsSubmission, foldersOf } from '#domain/submission-folders.ts';
import type { Submission } from '#domain/submission-model.ts';
import { FOLDER_INDEX, toSubmission } from './folder-reads.ts';
import {
  duplicateMarkKey,
  folderCounter,
  formKey,
  spamQuotaKey,
  submissionKey,
  usageKey,
} from './keys.ts';
import { AGAIN, busyRetries, cancelledForNow, retrying } from './retries.ts';
import { getItem, type TableTransactItem, transact } from './table.ts';

type TransactItem = TableTransactItem;

/**
 * The stored item: the submission, its team (so the pipeline needs no form
 * read to find it) and one index attribute per folder that holds it.
 */
export function submissionItem(
  submission: Submission,
  teamId: string,
  hints?: EmailHints,
): Record<string, unknown> {
  const item: Record<string, unknown> = {
    ...submissionKey(submission.formId, submission.id),
    entity: 'submission',
    teamId,
    ...submission,
    // A Map, not the object: the marshaller takes an object with an own `constructor`
    // property (a visitor's answer named so) for a class instance and refuses it.
    data: new Map(Object.entries(submission.data)),
  };
  if (hints && (hints.subject || hints.replyTo)) item.emailHints = hints;
  for (const folder of foldersOf(submission)) {
    item[FOLDER_INDEX[folder].partitionKey] = formKey(submission.formId).pk;
  }
  return item;
}

/**
 * `_subject` and `_replyto` as posted: never answers (SPEC.md stores no
 * special field in `data`), kept beside the submission for the emails.
 */
export interface EmailHints {
  subject?: string;
  replyTo?: string;
}

export interface SubmissionWrite {
  submission: Submission;
  teamId: string;
  /** Counted toward the month's allowance: the usage counter must stay below it. */
  usage?: MonthlyUsage;
  /** Claims these answers for the duplicate window; a claim already held cancels the write. */
  duplicateMark?: { fingerprint: string; expiresAt: number };
  /** Spam counted toward the form's monthly spam cap: the spam counter must stay below it. */
  spamQuota?: SpamQuota;
  /** Refuse when the form is paused, closed, past `autoCloseAt` or at `maxSubmissions`. */
  requireOpen: boolean;
  now: Date;
  hints?: EmailHints;
}

export interface SpamQuota {
  month: string;
  cap: number;
  /** When the month's counter may go (TTL, epoch seconds). */
  expiresAt: number;
}

export interface MonthlyUsage {
  month: string;
  allowance: number;
  /** The count, this post included, from which the post is near the limit. */
  nearLimitFrom: number;
  /** The count read before this post: a guess of which side of `nearLimitFrom` it lands. */
  usedBefore: number;
}

export type InsertOutcome =
  | { stored: true; nearLimit: boolean }
  | {
      stored: false;
      reason: 'form_gone' | 'closed' | 'limit_reached' | 'duplicate' | 'spam_cap_reached';
    };

/**
 * Whether the post counts as usage below the warning threshold or at or past
 * it: each is a condition on the count the transaction itself increments, so
 * the answer's `near_limit` follows the count written, however concurrent.
 */
type UsageBand = 'quiet' | 'near';

/**
 * Stores a submission in one transaction with every counter it moves: the
 * folder counters and `submissionCount` on the form, the team's monthly
 * usage, and the duplicate mark. The closing rules and the allowance are
 * conditions of that same transaction, so concurrent posts can never
 * overshoot `maxSubmissions` or the monthly allowance. A post whose usage
 * lands on the other side of the near-limit threshold than guessed costs one
 * more transaction (only posts crossing the threshold can).
 */
export async function insertSubmission(write: SubmissionWrite): Promise<InsertOutcome> {
  const { usage } = write;
  let band: UsageBand | undefined = usage && bandOf(usage, usage.usedBefore);
  let lastError: unknown;
  const retries = busyRetries(
    CONFLICT_ATTEMPTS,
    'This form is receiving many posts; try again',
    () => lastError,
  );
  return retrying(retries, async (): Promise<InsertOutcome | typeof AGAIN> => {
    const { items, at } = transactionItems(write, band);
    try {
      await transact(items);
      return { stored: true, nearLimit: band === 'near' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = (i: number | undefined) =>
        i !== undefined && reasons[i]?.Code === 'ConditionalCheckFailed';
      if (failed(1)) return { stored: false, reason: reasons[1]?.Item ? 'closed' : 'form_gone' };
      if (failed(at.duplicateMark)) return { stored: false, reason: 'duplicate' };
      if (failed(at.spamQuota)) return { stored: false, reason: 'spam_cap_reached' };
      lastError = error;
      if (usage && at.usage !== undefined && failed(at.usage)) {
        // Cancellation reasons carry raw attribute values: the document client leaves them be.
        const used = Number(reasons[at.usage]?.Item?.submissions?.N ?? 0);
        if (used >= usage.allowance) return { stored: false, reason: 'limit_reached' };
        band = bandOf(usage, used);
        return AGAIN;
      }
      // Posts to one form meet on its counters: a conflicting transaction is retried.
      if (!cancelledForNow(reasons)) throw error;
      return AGAIN;
    }
  });
}

const bandOf = (usage: MonthlyUsage, usedBefore: number): UsageBand =>
  usedBefore + 1 >= usage.nearLimitFrom ? 'near' : 'quiet';

/** The transaction, and where in it the items whose conditions tell an outcome stand. */
function transactionItems(
  write: SubmissionWrite,
  band: UsageBand | undefined,
): { items: TransactItem[]; at: { usage?: number; duplicateMark?: number; spamQuota?: number } } {
  const { submission, now } = write;
  const nowIso = now.toISOString();
  const counted = countsAsSubmission(submission);
  const adds = foldersOf(submission).map((folder) => folderCounter(folder));
  if (counted) adds.push('submissionCount');
  const names: Record<string, string> = {};
  const addExpression = adds.map((name, i) => {
    names[`#c${i}`] = name;
    return `#c${i} :one`;
  });
  const conditions = ['attribute_exists(pk)'];
  const values: Record<string, unknown> = { ':one': 1 };
  if (write.requireOpen) {
    conditions.push(
      '#status = :active',
      '(attribute_not_exists(closedReason) OR attribute_type(closedReason, :null))',
      '(attribute_not_exists(autoCloseAt) OR attribute_type(autoCloseAt, :null) OR autoCloseAt > :now)',
      '(attribute_not_exists(maxSubmissions) OR attribute_type(maxSubmissions, :null) OR submissionCount < maxSubmissions)',
    );
    names['#status'] = 'status';
    Object.assign(values, { ':active': 'active', ':null': 'NULL', ':now': nowIso });
  }
  const items: TransactItem[] = [
    {
      Put: {
        Item: submissionItem(submission, write.teamId, write.hints),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        Key: formKey(submission.formId),
        UpdateExpression: `ADD ${addExpression.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
  ];
  const at: { usage?: number; duplicateMark?: number; spamQuota?: number } = {};
  if (write.usage && band) at.usage = items.push(usageUpdate(write.teamId, write.usage, band)) - 1;
  if (write.spamQuota)
    at.spamQuota = items.push(spamQuotaUpdate(submission.formId, write.spamQuota)) - 1;
  if (write.duplicateMark) {
    at.duplicateMark = items.length;
    items.push({
      Put: {
        Item: {
          ...duplicateMarkKey(submission.formId, write.duplicateMark.fingerprint),
          entity: 'duplicateMark',
          submissionId: submission.id,
          expiresAt: write.duplicateMark.expiresAt,
        },
        // DynamoDB removes expired items late (DynamoDB Local never): an expired mark is free.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :nowSeconds',
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(now.getTime() / 1000) },
      },
    });
  }
  return { items, at };
}

/** One more spam this month for the form, below the cap. */
function spamQuotaUpdate(formId: string, quota: SpamQuota): TransactItem {
  return {
    Update: {
      Key: spamQuotaKey(formId, quota.month),
      UpdateExpression: 'ADD spam :one SET entity = :entity, expiresAt = :expiresAt',
      ConditionExpression: 'attribute_not_exists(spam) OR spam < :cap',
      ExpressionAttributeValues: {
        ':one': 1,
        ':entity': 'spamQuota',
        ':expiresAt': quota.expiresAt,
        ':cap': quota.cap,
      },
    },
  };
}

/**
 * One more on the month's usage, below the allowance and within `band`: a
 * quiet post needs the count before it to stay under `nearLimitFrom - 1`, a
 * near one needs it at or over that. The failing count comes back with the
 * cancellation, so the caller learns which band (or the limit) applies.
 */
function usageUpdate(teamId: string, usage: MonthlyUsage, band: UsageBand): TransactItem {
  const nearFromBefore = usage.nearLimitFrom - 1;
  const values: Record<string, unknown> = { ':one': 1, ':entity': 'usage' };
  let condition: string;
  if (band === 'quiet') {
    condition = 'attribute_not_exists(submissions) OR submissions < :quietBelow';
    values[':quietBelow'] = Math.min(nearFromBefore, usage.allowance);
  } else if (nearFromBefore <= 0) {
    condition = 'attribute_not_exists(submissions) OR submissions < :allowance';
    values[':allowance'] = usage.allowance;
  } else {
    condition = 'submissions >= :nearFrom AND submissions < :allowance';
    Object.assign(values, { ':nearFrom': nearFromBefore, ':allowance': usage.allowance });
  }
  return {
    Update: {
      Key: usageKey(teamId, usage.month),
      UpdateExpression: 'ADD submissions :one SET entity = :entity',
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A visitor's post to store: SPEC.md steps 10 to 12 in one call. */
export interface PostToStore {
  /** With `isSpam` as the link rule decided; a duplicate makes it spam here. */
  submission: Submission;
  teamId: string;
  usage: MonthlyUsage;
  spamQuota: SpamQuota;
  duplicateMark: NonNullable<SubmissionWrite['duplicateMark']>;
  now: Date;
  hints?: EmailHints;
}

export type StoredPost =
  | { stored: true; spam: boolean; nearLimit: boolean }
  | { stored: false; reason: 'form_gone' | 'closed' | 'limit_reached' | 'spam_cap_reached' };

/**
 * Stores a post: clean, it counts toward the allowance and claims its
 * duplicate mark; spam (by the link rule, or because the mark was already
 * claimed) counts toward nothing but the form's monthly spam cap. A
 * duplicate costs one more transaction, to store it as spam.
 */
export async function storePost(post: PostToStore): Promise<StoredPost> {
  const write = (spam: boolean): SubmissionWrite => ({
    submission: { ...post.submission, isSpam: spam },
    teamId: post.teamId,
    requireOpen: true,
    now: post.now,
    hints: post.hints,
    usage: spam ? undefined : post.usage,
    spamQuota: spam ? post.spamQuota : undefined,
    duplicateMark: spam ? undefined : post.duplicateMark,
  });
  let spam = post.submission.isSpam;
  let outcome = await insertSubmission(write(spam));
  if (!outcome.stored && outcome.reason === 'duplicate') {
    spam = true;
    outcome = await insertSubmission(write(spam));
  }
  if (outcome.stored) return { stored: true, spam, nearLimit: outcome.nearLimit };
  if (outcome.reason === 'duplicate') throw new Error('a duplicate without a duplicate claim');
  return { stored: false, reason: outcome.reason };
}

const CONFLICT_ATTEMPTS = 10;

export async function getSubmission(
  formId: string,
  submissionId: string,
): Promise<Submission | undefined> {
  const item = await getItem(submissionKey(formId, submissionId));
  return item ? toSubmission(item) : undefined;
}
