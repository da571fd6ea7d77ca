import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { confirmedAt, isPending } from '#domain/confirmation-state.ts';
import { pickShard } from '#domain/counter-shares.ts';
import { countsAsSubmission, foldersOf } from '#domain/submission-folders.ts';
import type { SpamReason, Submission } from '#domain/submission-model.ts';
import { answerCatalogueUpdate } from './answer-columns.ts';
import { emailIndexPuts } from './email-index.ts';
import { FOLDER_INDEX, toSubmission } from './folder-reads.ts';
import { COUNTED, type FormCounters, readCounters } from './form-counters.ts';
import { ensureCounterShards } from './forms.ts';
import { type IdempotencyClaim, idempotencyRecordPut } from './idempotency-records.ts';
import {
  duplicateMarkKey,
  FORM_COUNTER_SHARDS,
  folderCounter,
  formCounterKey,
  formKey,
  spamQuotaKey,
  submissionKey,
  USAGE_COUNTER_SHARDS,
  uploadClaimKey,
  usageKey,
} from './keys.ts';
import { addPersonPlace } from './person-places.ts';
import { busyRetries, cancelledForNow, pause, updateIf } from './retries.ts';
import { getItem, type TableTransactItem, transact } from './table.ts';
import { readUsage, type UsageCounts, usageCaps } from './usage.ts';

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
 * `_subject` and `_replyto` as posted: never answers (no special field is
 * stored in `data`: docs/submit.md#special-fields), kept beside the
 * submission for the emails.
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
  /**
   * Takes the person's place on a form with `unique` (the keyed hash of their
   * mailbox); a place already held cancels the write (docs/forms.md#one-answer-per-person).
   */
  personPlace?: { hash: string };
  /** Claims these direct uploads for this submission; one claimed already cancels the write. */
  uploadClaims?: UploadClaims;
  /** Claims the post's `Idempotency-Key`; a key held already cancels the write. */
  idempotency?: IdempotencyClaim;
  /** Spam counted toward the form's monthly spam cap: the spam counter must stay below it. */
  spamQuota?: SpamQuota;
  /** Refuse when the form is paused, closed, past `autoCloseAt` or at `maxSubmissions`. */
  requireOpen: boolean;
  /**
   * The submission is stored already, pending: the transaction confirms it
   * (conditional on `pending`) instead of putting it, and moves the counters
   * as a new submission's, out of the `pending` folder
   * (docs/submit.md#confirm-by-email).
   */
  confirming?: boolean;
  /** The form's counter shards as last read: where a post likely finds room. */
  counters?: FormCounters;
  now: Date;
  hints?: EmailHints;
  /**
   * Answer names the form's column catalogue lacks (`newAnswerNames`): added
   * by the same transaction. Absent or empty, the catalogue is not written.
   */
  newColumns?: readonly string[];
  /**
   * Keyed hashes of the addresses the submission holds: one email index
   * entry each, put by the same transaction (docs/privacy.md#how-a-person-is-found).
   */
  emailHashes?: readonly string[];
  /**
   * A waitlist signup's sender, as the keyed hash of its address: kept on
   * the submission, so its signup mark is made and removed without the
   * secret (docs/privacy.md#the-signup-mark).
   */
  signupHash?: string;
}

export interface UploadClaims {
  uploadIds: readonly string[];
  /** When a claim may go (TTL, epoch seconds): after its pending object could no longer be used. */
  expiresAt: number;
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
  /** The usage shards as last read: where a post likely finds room. */
  known?: UsageCounts;
}

export type InsertOutcome =
  | { stored: true; nearLimit: boolean }
  | {
      stored: false;
      reason:
        | 'form_gone'
        | 'closed'
        | 'full'
        | 'limit_reached'
        | 'duplicate'
        | 'duplicate_person'
        | 'spam_cap_reached'
        | 'upload_used'
        | 'key_used'
        | 'not_pending';
    };

/** Where one try counts the post: a form counter shard and a usage shard (or the near one). */
interface Placement {
  formShard: number;
  usage?: number | 'near';
}

/**
 * Stores a submission in one transaction with every counter it moves: one
 * of the form's counter shards (its folder sizes and counted submissions,
 * with the form's gate and that shard's share of `maxSubmissions` as the
 * condition), one shard of the team's monthly usage (below its share of the
 * allowance), the duplicate mark and the spam quota. Posts spread over the
 * shards, so concurrent posts rarely meet; a shard found full is re-read
 * with the others and the post tries one with room, so the limits stay
 * exact: a post is refused only when a consistent read shows no room left.
 */
export async function insertSubmission(write: SubmissionWrite): Promise<InsertOutcome> {
  const knowledge = {
    counters: write.counters,
    countersVerified: false,
    usage: write.usage?.known,
    usageVerified: false,
  };
  const avoidForm = new Set<number>();
  const avoidUsage = new Set<number>();
  const caps = write.usage && usageCaps(write.usage.allowance, write.usage.nearLimitFrom);
  let conflicts = 0;
  let probes = 0;
  let lastError: unknown;
  const busy = busyRetries(
    CONFLICT_ATTEMPTS,
    'This form is receiving many posts; try again',
    () => lastError,
  );

  const formShard = async (): Promise<number | undefined> => {
    const hasRoom = (k: number) => {
      const shard = knowledge.counters?.shards.get(k);
      return !write.requireOpen || shard?.cap === undefined || shard.counted < shard.cap;
    };
    for (;;) {
      const k =
        pickShard(FORM_COUNTER_SHARDS, hasRoom, avoidForm) ??
        pickShard(FORM_COUNTER_SHARDS, hasRoom, new Set());
      if (k !== undefined || knowledge.countersVerified) return k;
      knowledge.counters = await readCounters(write.submission.formId, { consistent: true });
      knowledge.countersVerified = true;
    }
  };
  const usageShard = async (): Promise<number | 'near' | 'limit'> => {
    if (!caps) throw new Error('usage without caps');
    const hasRoom = (k: number) => (knowledge.usage?.quiet[k] ?? 0) < caps.quiet(k);
    for (;;) {
      // An allowance lowered below what is counted (a plan change mid-month)
      // leaves room on some shards: the total decides first.
      if ((knowledge.usage?.total ?? 0) >= write.usage!.allowance) {
        if (knowledge.usageVerified) return 'limit';
        knowledge.usage = await readUsage(write.teamId, write.usage!.month, { consistent: true });
        knowledge.usageVerified = true;
        continue;
      }
      const k =
        pickShard(USAGE_COUNTER_SHARDS, hasRoom, avoidUsage) ??
        pickShard(USAGE_COUNTER_SHARDS, hasRoom, new Set());
      if (k !== undefined) return k;
      if ((knowledge.usage?.near ?? 0) < caps.near) return 'near';
      if (knowledge.usageVerified) return 'limit';
      knowledge.usage = await readUsage(write.teamId, write.usage!.month, { consistent: true });
      knowledge.usageVerified = true;
    }
  };

  for (;;) {
    const shard = await formShard();
    if (shard === undefined) return { stored: false, reason: 'full' };
    const placement: Placement = { formShard: shard };
    if (write.usage) {
      const usage = await usageShard();
      if (usage === 'limit') return { stored: false, reason: 'limit_reached' };
      placement.usage = usage;
    }
    const { items, at } = transactionItems(write, placement, caps);
    try {
      await transact(items);
      return { stored: true, nearLimit: placement.usage === 'near' };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = (i: number | undefined) =>
        i !== undefined && reasons[i]?.Code === 'ConditionalCheckFailed';
      // Confirmed by another click meanwhile, or gone (erased, expired, deleted).
      if (write.confirming && failed(0)) return { stored: false, reason: 'not_pending' };
      // A key held already comes first: its holder is this post's twin, which also claimed
      // the same uploads and duplicate mark.
      if (failed(at.idempotency)) return { stored: false, reason: 'key_used' };
      if (at.uploadClaims?.some(failed)) return { stored: false, reason: 'upload_used' };
      // The person's place before the duplicate mark: the same answers sent twice by one
      // person are the person's second answer first.
      if (failed(at.personPlace)) return { stored: false, reason: 'duplicate_person' };
      if (failed(at.duplicateMark)) return { stored: false, reason: 'duplicate' };
      if (failed(at.spamQuota)) return { stored: false, reason: 'spam_cap_reached' };
      lastError = error;
      if (failed(1)) {
        // Cancellation reasons carry raw attribute values: the document client leaves them be.
        const old = reasons[1]?.Item;
        if (!old) {
          // A form from before the shards, or one being deleted.
          if (!(await ensureCounterShards(write.submission.formId)))
            return { stored: false, reason: 'form_gone' };
        } else {
          const gateOpen =
            old.open?.BOOL === true &&
            (old.closesAt?.S === undefined || old.closesAt.S > write.now.toISOString());
          if (write.requireOpen && !gateOpen) return { stored: false, reason: 'closed' };
          // Full: the first time, see where room is left now; then learn shard by shard.
          if (!knowledge.countersVerified) {
            knowledge.counters = await readCounters(write.submission.formId, { consistent: true });
            knowledge.countersVerified = true;
          } else {
            knowledge.counters?.shards.set(shard, {
              shard,
              folders: { all: 0, unread: 0, starred: 0, spam: 0, pending: 0 },
              counted: Number(old[COUNTED]?.N ?? 0),
              cap: old.cap?.N === undefined ? undefined : Number(old.cap.N),
              open: gateOpen,
            });
          }
        }
      } else if (at.usage !== undefined && failed(at.usage)) {
        if (!knowledge.usageVerified) {
          knowledge.usage = await readUsage(write.teamId, write.usage!.month, { consistent: true });
          knowledge.usageVerified = true;
        } else if (knowledge.usage) {
          const used = Number(reasons[at.usage]?.Item?.submissions?.N ?? 0);
          if (placement.usage === 'near') knowledge.usage.near = used;
          else knowledge.usage.quiet[placement.usage as number] = used;
        }
      } else if (cancelledForNow(reasons)) {
        const conflict = (i: number | undefined) =>
          i !== undefined && reasons[i]?.Code === 'TransactionConflict';
        if (conflict(1)) avoidForm.add(shard);
        if (conflict(at.usage) && typeof placement.usage === 'number')
          avoidUsage.add(placement.usage);
        conflicts += 1;
        if (conflicts >= CONFLICT_ATTEMPTS) throw busy.exhausted();
        await pause(conflicts);
        continue;
      } else {
        throw error;
      }
      probes += 1;
      if (probes >= MAX_PROBES) throw busy.exhausted();
    }
  }
}

/**
 * Tries that found a shard full or missing before a post gives up with
 * `503 busy`: each is followed by a consistent read of the shards, so only a
 * post that keeps losing the last places of a limit to other posts gets
 * that far.
 */
const MAX_PROBES = 20;

/** The transaction, and where in it the items whose conditions tell an outcome stand. */
function transactionItems(
  write: SubmissionWrite,
  placement: Placement,
  caps: ReturnType<typeof usageCaps> | undefined,
): { items: TransactItem[]; at: TransactionPositions } {
  const { submission, now } = write;
  const counted = countsAsSubmission(submission);
  const adds: [string, number][] = foldersOf(submission).map((folder) => [
    folderCounter(folder),
    1,
  ]);
  if (counted) adds.push([COUNTED, 1]);
  if (write.confirming) adds.push([folderCounter('pending'), -1]);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const addExpression = adds.map(([name, delta], i) => {
    names[`#c${i}`] = name;
    values[`:d${i}`] = delta;
    return `#c${i} :d${i}`;
  });
  const conditions = ['attribute_exists(pk)'];
  if (write.requireOpen) {
    conditions.push(
      '#open = :true',
      '(attribute_not_exists(closesAt) OR closesAt > :now)',
      '(attribute_not_exists(cap) OR #counted < cap)',
    );
    Object.assign(names, { '#open': 'open', '#counted': COUNTED });
    Object.assign(values, { ':true': true, ':now': now.toISOString() });
  }
  const items: TransactItem[] = [
    write.confirming ? confirmingUpdate(submission, write.personPlace?.hash) : submissionPut(write),
    {
      Update: {
        Key: formCounterKey(submission.formId, placement.formShard),
        UpdateExpression: `ADD ${addExpression.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
  ];
  const at: TransactionPositions = {};
  if (write.usage && caps && placement.usage !== undefined) {
    const cap = placement.usage === 'near' ? caps.near : caps.quiet(placement.usage);
    at.usage = items.push(usageUpdate(write.teamId, write.usage.month, placement.usage, cap)) - 1;
  }
  if (write.spamQuota)
    at.spamQuota = items.push(spamQuotaUpdate(submission.formId, write.spamQuota)) - 1;
  if (write.newColumns && write.newColumns.length > 0) {
    items.push(answerCatalogueUpdate(submission.formId, write.newColumns, now.getTime()));
  }
  if (write.emailHashes && write.emailHashes.length > 0) {
    items.push(
      ...emailIndexPuts(write.teamId, submission.formId, submission.id, write.emailHashes),
    );
  }
  if (write.uploadClaims && write.uploadClaims.uploadIds.length > 0) {
    const { uploadIds, expiresAt } = write.uploadClaims;
    at.uploadClaims = uploadIds.map(
      (uploadId) =>
        items.push({
          Put: {
            Item: {
              ...uploadClaimKey(submission.formId, uploadId),
              entity: 'uploadClaim',
              submissionId: submission.id,
              expiresAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        }) - 1,
    );
  }
  if (write.idempotency) {
    at.idempotency =
      items.push(
        idempotencyRecordPut(
          submission.formId,
          write.idempotency,
          placement.usage === 'near',
          Math.floor(now.getTime() / 1000),
        ),
      ) - 1;
  }
  if (write.personPlace) {
    at.personPlace = addPersonPlace(items, {
      formId: submission.formId,
      hash: write.personPlace.hash,
      submissionId: submission.id,
    });
  }
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

/** The new submission's put. */
function submissionPut(write: SubmissionWrite): TransactItem {
  const item = submissionItem(
    write.personPlace
      ? { ...write.submission, personHash: write.personPlace.hash }
      : write.submission,
    write.teamId,
    write.hints,
  );
  // Beside it, the key it was stored under: an erase scrubs that key's record
  // (docs/privacy.md#erase-by-email) without looking for it.
  if (write.idempotency) item.idempotencyKeyHash = write.idempotency.keyHash;
  if (write.signupHash) item.signupHash = write.signupHash;
  return { Put: { Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * A pending submission made the confirmed `submission`: its confirmation
 * and its folders' index keys, on the condition that it is still pending
 * (a second click, an erase or the expiry purge won the race otherwise).
 */
function confirmingUpdate(submission: Submission, personHash?: string): TransactItem {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {
    ':confirmation': submission.confirmation,
    ':pending': 'pending',
    ':form': formKey(submission.formId).pk,
  };
  const sets = ['confirmation = :confirmation'];
  for (const folder of foldersOf(submission))
    sets.push(`${FOLDER_INDEX[folder].partitionKey} = :form`);
  if (personHash) {
    sets.push('personHash = :personHash');
    values[':personHash'] = personHash;
  }
  return {
    Update: {
      Key: submissionKey(submission.formId, submission.id),
      UpdateExpression: `SET ${sets.join(', ')} REMOVE ${FOLDER_INDEX.pending.partitionKey}`,
      ConditionExpression: 'confirmation.#status = :pending',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Where the items whose failed conditions mean something sit in the transaction. */
interface TransactionPositions {
  usage?: number;
  duplicateMark?: number;
  personPlace?: number;
  spamQuota?: number;
  uploadClaims?: number[];
  idempotency?: number;
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
 * One more on a usage shard, below its share of the allowance. The count
 * comes back with a cancellation, so the caller learns the shard is full.
 */
function usageUpdate(
  teamId: string,
  month: string,
  shard: number | 'near',
  cap: number,
): TransactItem {
  return {
    Update: {
      Key: usageKey(teamId, month, shard),
      UpdateExpression: 'ADD submissions :one SET entity = :entity',
      ConditionExpression: 'attribute_not_exists(submissions) OR submissions < :cap',
      ExpressionAttributeValues: { ':one': 1, ':entity': 'usage', ':cap': cap },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A visitor's post to store: steps 10 to 12 in one call (docs/submit.md#processing-order). */
export interface PostToStore {
  /** With `isSpam` (and `spamReason`) as the link rule decided; a duplicate makes it spam here. */
  submission: Submission;
  teamId: string;
  usage: MonthlyUsage;
  counters?: FormCounters;
  spamQuota: SpamQuota;
  /** Absent when the form's duplicate rule is off (`markDuplicates`). */
  duplicateMark?: SubmissionWrite['duplicateMark'];
  /** Present on a form with `unique` when the post carries an address (and is not link spam). */
  personPlace?: SubmissionWrite['personPlace'];
  uploadClaims?: UploadClaims;
  idempotency?: IdempotencyClaim;
  now: Date;
  hints?: EmailHints;
  newColumns?: readonly string[];
  emailHashes?: readonly string[];
  signupHash?: string;
}

export type StoredPost =
  | {
      stored: true;
      spam: boolean;
      /** Why it is spam, when it is. */
      spamReason?: SpamReason;
      /** Stored waiting for its visitor's confirmation (docs/submit.md#confirm-by-email). */
      pending: boolean;
      nearLimit: boolean;
    }
  | {
      stored: false;
      /**
       * `full`: no room left under `maxSubmissions`; `closed`: the form's gate is shut;
       * `upload_used`: a direct upload it names was used by another submission; `key_used`:
       * another post holds its `Idempotency-Key`. A duplicate (of answers or of a person) is
       * stored as spam, so never a reason here.
       */
      reason: Exclude<
        Extract<InsertOutcome, { stored: false }>['reason'],
        'duplicate' | 'duplicate_person' | 'not_pending'
      >;
    };

/**
 * Stores a post: clean, it counts toward the allowance and claims its
 * duplicate mark and its person's place; spam (by the link rule, because the
 * mark was already claimed, or because the person has answered already)
 * counts toward nothing but the form's monthly spam cap and claims nothing.
 * A duplicate costs one more transaction, to store it as spam; two posts of
 * one person racing leave one clean and one spam, as the place is one item
 * both transactions put on condition (docs/submit.md#one-answer-per-person).
 */
export async function storePost(post: PostToStore): Promise<StoredPost> {
  const pending = isPending(post.submission);
  const write = (spamReason: SpamReason | undefined): SubmissionWrite => ({
    // Its reason: the link rule's, or the claim it found held (docs/submissions.md#spam-reasons);
    // spam waits for no confirmation: it is never delivered, and nobody is emailed for it.
    submission: spamReason
      ? { ...withoutConfirmation(post.submission), isSpam: true, spamReason }
      : { ...post.submission, isSpam: false },
    teamId: post.teamId,
    requireOpen: true,
    counters: post.counters,
    now: post.now,
    hints: post.hints,
    newColumns: post.newColumns,
    emailHashes: post.emailHashes,
    signupHash: post.signupHash,
    // A pending post counts toward the allowance only once confirmed.
    usage: spamReason || pending ? undefined : post.usage,
    spamQuota: spamReason ? post.spamQuota : undefined,
    duplicateMark: spamReason ? undefined : post.duplicateMark,
    // A pending post's place is taken by its click (confirmPending), not by the post.
    personPlace: spamReason || pending ? undefined : post.personPlace,
    uploadClaims: post.uploadClaims,
    idempotency: post.idempotency,
  });
  let spamReason = post.submission.isSpam ? (post.submission.spamReason ?? 'links') : undefined;
  let outcome = await insertSubmission(write(spamReason));
  if (
    !outcome.stored &&
    (outcome.reason === 'duplicate' || outcome.reason === 'duplicate_person')
  ) {
    spamReason = outcome.reason;
    outcome = await insertSubmission(write(spamReason));
  }
  if (outcome.stored) {
    return {
      stored: true,
      spam: spamReason !== undefined,
      ...(spamReason ? { spamReason } : {}),
      pending: pending && spamReason === undefined,
      nearLimit: outcome.nearLimit,
    };
  }
  if (outcome.reason === 'duplicate' || outcome.reason === 'duplicate_person') {
    throw new Error('a duplicate without a claim');
  }
  if (outcome.reason === 'not_pending') throw new Error('a new post found not pending');
  return { stored: false, reason: outcome.reason };
}

const CONFLICT_ATTEMPTS = 10;

function withoutConfirmation(submission: Submission): Submission {
  const { confirmation: _held, ...rest } = submission;
  return rest;
}

/** What confirming a pending submission needs: the submission as read, its team, the month's usage. */
export interface PendingToConfirm {
  submission: Submission;
  teamId: string;
  usage: MonthlyUsage;
  counters?: FormCounters;
  now: Date;
  /**
   * On a form with one answer per person: the place the click takes, in the
   * same transaction (a place held is `already_answered`); its hash is kept
   * on the confirmed submission (`personHash`), so its deletion frees it.
   */
  personPlace?: { hash: string };
}

export type ConfirmedOutcome =
  | { confirmed: true; nearLimit: boolean }
  | {
      confirmed: false;
      reason:
        | 'not_pending'
        | 'full'
        | 'closed'
        | 'limit_reached'
        | 'form_gone'
        | 'already_answered';
    };

/**
 * Confirms a pending submission (docs/submit.md#confirm-by-email): one
 * transaction takes it from pending to confirmed (on the condition that it
 * is still pending) and counts it as a new submission is counted, under
 * the form's gate and `maxSubmissions` and the month's allowance
 * (insertSubmission's shards and retries), so 200 clicks racing for 50
 * places confirm 50.
 */
export async function confirmPending(pending: PendingToConfirm): Promise<ConfirmedOutcome> {
  const current = pending.submission.confirmation;
  if (current?.status !== 'pending') return { confirmed: false, reason: 'not_pending' };
  const outcome = await insertSubmission({
    submission: { ...pending.submission, confirmation: confirmedAt(current!, pending.now) },
    teamId: pending.teamId,
    usage: pending.submission.isTest ? undefined : pending.usage,
    requireOpen: true,
    counters: pending.counters,
    now: pending.now,
    confirming: true,
    personPlace: pending.personPlace,
  });
  if (outcome.stored) return { confirmed: true, nearLimit: outcome.nearLimit };
  const { reason } = outcome;
  switch (reason) {
    case 'not_pending':
    case 'full':
    case 'closed':
    case 'form_gone':
    case 'limit_reached':
      return { confirmed: false, reason };
    // The person's place is held: another answer of theirs is stored (docs/forms.md#one-answer-per-person).
    case 'duplicate_person':
      return { confirmed: false, reason: 'already_answered' };
  }
  throw new Error(`a confirmation refused for ${reason}`);
}

export async function getSubmission(
  formId: string,
  submissionId: string,
): Promise<Submission | undefined> {
  const item = await getItem(submissionKey(formId, submissionId));
  return item ? toSubmission(item) : undefined;
}

/**
 * Keeps a waitlist signup's sender hash on a submission stored before the
 * submit path kept it (`privacy reindex`), so its deletion finds its keyed
 * signup mark (docs/privacy.md#the-signup-mark). A submission gone since,
 * or holding one already, is left as it is.
 */
export async function keepSignupHash(
  formId: string,
  submissionId: string,
  signupHash: string,
): Promise<void> {
  await updateIf({
    Key: submissionKey(formId, submissionId),
    UpdateExpression: 'SET signupHash = :hash',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(signupHash)',
    ExpressionAttributeValues: { ':hash': signupHash },
  });
}
