import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { config } from '#config';
import { isPending } from '#domain/confirmation-state.ts';
import { notFound } from '#domain/errors.ts';
import {
  addCounterDeltas,
  type Flags,
  FOLDERS,
  foldersOf,
  noDeltas,
} from '#domain/submission-folders.ts';
import type { Submission } from '#domain/submission-model.ts';
import { FOLDER_INDEX, getSubmissionsById } from './folder-reads.ts';
import { counterChanges } from './form-counters.ts';
import { ensureCounterShards } from './forms.ts';
import { FORM_COUNTER_SHARDS, formKey, submissionKey } from './keys.ts';
import { personPlaceRelease } from './person-places.ts';
import { AGAIN, busyRetries, cancelledForNow, retrying } from './retries.ts';
import { type TableTransactItem, transact } from './table.ts';

/** What to do with one submission: new flags, delete it, or nothing (undefined). */
export type SubmissionEdit = (submission: Submission) => Flags | 'delete' | undefined;

export interface BulkOptions {
  /** Epoch ms after which no new batch is started (the function's time is running out). */
  deadline?: number;
  /** Runs after each committed batch with the submissions it deleted or changed. */
  afterCommit?: (committed: Submission[]) => Promise<void>;
}

export interface BulkOutcome {
  /** Submissions changed (or deleted); those already as asked are not counted. */
  count: number;
  /** False when the deadline stopped the walk: the same request finishes the job. */
  complete: boolean;
}

type TransactItem = TableTransactItem;

/**
 * A transaction holds at most 100 items: the submissions, the form's
 * counter shards it moves (all of them at worst, for a form with a limit),
 * and the person's place each deleted submission frees (transactionSlices).
 */
export const SUBMISSIONS_PER_TRANSACTION = 100 - FORM_COUNTER_SHARDS;

/**
 * A batch cut into transactions of at most SUBMISSIONS_PER_TRANSACTION
 * items before the counters: a submission that holds a person's place
 * (`personHash`) counts twice, its deletion freeing the place in the same
 * transaction (docs/forms.md#one-answer-per-person).
 */
export function transactionSlices(batch: readonly Submission[]): Submission[][] {
  const slices: Submission[][] = [];
  let current: Submission[] = [];
  let weight = 0;
  for (const submission of batch) {
    const items = submission.personHash ? 2 : 1;
    if (weight + items > SUBMISSIONS_PER_TRANSACTION) {
      slices.push(current);
      current = [];
      weight = 0;
    }
    current.push(submission);
    weight += items;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

const ATTEMPTS = 10;

/**
 * Applies `edit` to every submission the batches yield. Each batch is one
 * transaction: every changed submission is written on the condition that its
 * flags are still those read, together with the exact counter deltas on the
 * form item. A submission changed meanwhile is read again and the batch
 * retried, so counters stay exact under concurrent requests, and repeating
 * the same request changes (and counts) only what is still different.
 */
export async function editSubmissions(
  formId: string,
  batches: AsyncIterable<Submission[]>,
  edit: SubmissionEdit,
  options: BulkOptions = {},
): Promise<BulkOutcome> {
  let count = 0;
  let complete = true;
  let failure: unknown;
  const inFlight = new Set<Promise<void>>();
  const start = (submissions: Submission[]) => {
    const running = commitBatch(formId, submissions, edit)
      .then(async (committed) => {
        count += committed.length;
        if (committed.length > 0) await options.afterCommit?.(committed);
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  };
  for await (const batch of batches) {
    if (options.deadline !== undefined && Date.now() > options.deadline) {
      complete = false;
      break;
    }
    for (const slice of transactionSlices(batch)) {
      start(slice);
      while (inFlight.size >= config.bulkParallelTransactions) await Promise.race(inFlight);
    }
    if (failure) break;
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
  return { count, complete };
}

/** Commits one batch; returns the submissions it changed, as they were before. */
async function commitBatch(
  formId: string,
  batch: Submission[],
  edit: SubmissionEdit,
): Promise<Submission[]> {
  let current = batch;
  let lastError: unknown;
  // Deleted submissions whose place another submission holds (never expected: only the
  // holder keeps the hash): their deletion leaves the place be.
  const notHolders = new Set<string>();
  const retries = busyRetries(
    ATTEMPTS,
    'The form kept changing; send the same request again',
    () => lastError,
  );
  return retrying(retries, async () => {
    const plans = current.flatMap((submission) => {
      const outcome = edit(submission);
      return outcome === undefined ? [] : [{ submission, outcome }];
    });
    if (plans.length === 0) return [];
    const deltas = noDeltas();
    const items: TransactItem[] = plans.map(({ submission, outcome }) => {
      const after = outcome === 'delete' ? undefined : outcome;
      addCounterDeltas(deltas, submission, after);
      return after ? flagUpdate(submission, after) : submissionDelete(submission);
    });
    const counters = await counterChanges(formId, deltas);
    items.push(...counters);
    // A deleted submission frees the person's place it holds, in the same transaction.
    const releases = plans.flatMap(({ submission, outcome }) =>
      outcome === 'delete' && submission.personHash && !notHolders.has(submission.id)
        ? [{ formId, hash: submission.personHash, submissionId: submission.id }]
        : [],
    );
    const releasedFrom = items.length;
    items.push(...releases.map(personPlaceRelease));
    try {
      await transact(items);
      return plans.map((plan) => plan.submission);
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      lastError = error;
      const heldByAnother = releases.filter(
        (_, i) => reasons[releasedFrom + i]?.Code === 'ConditionalCheckFailed',
      );
      if (heldByAnother.length > 0) {
        for (const place of heldByAnother) notHolders.add(place.submissionId);
        return AGAIN;
      }
      const shards = reasons.slice(plans.length, plans.length + counters.length);
      if (shards.some((reason) => reason.Code === 'ConditionalCheckFailed')) {
        // A shard is missing (the form is gone, or it is from before the
        // shards: they are made), or the shards moved since read: plan again.
        const missing = shards.some((r) => r.Code === 'ConditionalCheckFailed' && !r.Item);
        if (missing && !(await ensureCounterShards(formId))) throw notFound('Form');
        return AGAIN;
      }
      const stale = plans
        .filter((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed')
        .map((plan) => plan.submission.id);
      if (stale.length > 0) {
        // Changed or deleted since read: take them as they are now.
        const fresh = await getSubmissionsById(formId, stale);
        const staleIds = new Set(stale);
        current = [...current.filter((s) => !staleIds.has(s.id)), ...fresh];
      } else if (!cancelledForNow(reasons)) {
        throw error;
      }
      return AGAIN;
    }
  });
}

/**
 * The state each write was planned from, as a condition: its flags, and,
 * planned from a pending copy, that it is still pending. A click confirms
 * without touching the flags; a deletion planned from the pending copy
 * committing after it would take the pending counter down twice and leave
 * the confirmed one counted in all/unread/submissionCount, its person's place
 * held (docs/submit.md#confirm-by-email). It fails instead, and is planned
 * again from the item as it is now. (Confirmed never goes back to pending:
 * a copy planned from any other state needs no such condition.)
 */
function flagsCondition(submission: Submission) {
  const flags = '#read = :wasRead AND #starred = :wasStarred AND #isSpam = :wasSpam';
  const names: Record<string, string> = {
    '#read': 'read',
    '#starred': 'starred',
    '#isSpam': 'isSpam',
  };
  const values: Record<string, unknown> = {
    ':wasRead': submission.read,
    ':wasStarred': submission.starred,
    ':wasSpam': submission.isSpam,
  };
  if (!isPending(submission)) return { ConditionExpression: flags, names, values };
  names['#status'] = 'status';
  values[':pending'] = 'pending';
  return { ConditionExpression: `${flags} AND confirmation.#status = :pending`, names, values };
}

/** New flags, and the folder index attributes that follow from them. */
function flagUpdate(submission: Submission, after: Flags): TransactItem {
  const { ConditionExpression, names, values } = flagsCondition(submission);
  const holding = new Set(foldersOf(after));
  const sets = ['#read = :read', '#starred = :starred', '#isSpam = :isSpam'];
  const removes: string[] = [];
  const attributeNames: Record<string, string> = { ...names };
  const attributeValues: Record<string, unknown> = {
    ...values,
    ':read': after.read,
    ':starred': after.starred,
    ':isSpam': after.isSpam,
  };
  for (const folder of FOLDERS) {
    attributeNames[`#in_${folder}`] = FOLDER_INDEX[folder].partitionKey;
    if (holding.has(folder)) sets.push(`#in_${folder} = :form`);
    else removes.push(`#in_${folder}`);
  }
  if (holding.size > 0) attributeValues[':form'] = formKey(submission.formId).pk;
  // The summary's minutes to first read: set once, by the first move to read.
  if (after.read && !submission.read) {
    sets.push('firstReadAt = if_not_exists(firstReadAt, :readAt)');
    attributeValues[':readAt'] = new Date().toISOString();
  }
  // Spam is kept from when it became spam (spamExpired): the move is that moment.
  // Its reason is the owner's move, and goes when it leaves spam (docs/submissions.md#spam-reasons).
  if (after.isSpam && !submission.isSpam) {
    sets.push('spamAt = :spamAt', 'spamReason = :moved');
    attributeValues[':spamAt'] = new Date().toISOString();
    attributeValues[':moved'] = 'moved';
  } else if (!after.isSpam) {
    removes.push('spamAt', 'spamReason');
  }
  return {
    Update: {
      Key: submissionKey(submission.formId, submission.id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression,
      ExpressionAttributeNames: attributeNames,
      ExpressionAttributeValues: attributeValues,
    },
  };
}

function submissionDelete(submission: Submission): TransactItem {
  const { ConditionExpression, names, values } = flagsCondition(submission);
  return {
    Delete: {
      Key: submissionKey(submission.formId, submission.id),
      ConditionExpression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
