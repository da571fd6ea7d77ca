import type { DynamoDBRecord } from 'aws-lambda';
import { isPending } from '#domain/confirmation-state.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';
import {
  countersOf,
  difference,
  hourOf,
  type RollupChange,
  removalOf,
  rollupRuns,
} from '#domain/summary-counters.ts';
import { getForm } from '#store/forms.ts';
import { submissionOfImage } from '#store/stream-images.ts';
import { applyRollupRun, firstSignupOf, forgetSignup } from '#store/summary-buckets.ts';
import { streamWorker } from './batch-worker.ts';

type StreamImage = Parameters<typeof submissionOfImage>[0];

/** Where a batch stopped: its records from `at` on are not rolled up (the batch's length when all were). */
interface Stopped {
  at: number;
  error?: unknown;
}

/**
 * Keeps the summary's hour buckets (docs/analytics.md#summary): every change
 * of a submission (filter SUBMISSION_CHANGE_PATTERN) moves its hour's
 * counters by the difference between what it counted before and after. A
 * batch's changes to one bucket are added up and written once (rollupRuns);
 * each bucket takes a record once (its last sequence number). When a record
 * fails, it and the batch's later records fail, so a retry starts from it
 * and never finds a later change of a bucket applied before an earlier one.
 */
export const handler = streamWorker((batch) => {
  const place = new Map(batch.map((record, index) => [record.dynamodb?.SequenceNumber, index]));
  let rolled: Promise<Stopped> | undefined;
  return async (record) => {
    rolled ??= rollUpBatch(batch);
    const stopped = await rolled;
    if ((place.get(record.dynamodb?.SequenceNumber) ?? 0) < stopped.at) return;
    throw stopped.error ?? new Error('an earlier record of the batch failed');
  };
});

async function rollUpBatch(batch: readonly DynamoDBRecord[]): Promise<Stopped> {
  const forms = new Map<string, Promise<FormRecord | undefined>>();
  const changes: RollupChange[] = [];
  let stopped: Stopped = { at: batch.length };
  for (const [index, record] of batch.entries()) {
    try {
      changes.push(...(await changesOf(record, index, forms)));
    } catch (error) {
      stopped = { at: index, error };
      break;
    }
  }
  // In the order of each bucket's first record: a failed write stops the batch at that record,
  // and every bucket written before it holds only records before or after it that it took.
  for (const run of rollupRuns(changes)) {
    try {
      await applyRollupRun(run);
    } catch (error) {
      return { at: run.index, error };
    }
  }
  return stopped;
}

/** What one record changes in its form's buckets; a waitlist's signup marks are kept here, in order. */
async function changesOf(
  record: DynamoDBRecord,
  index: number,
  forms: Map<string, Promise<FormRecord | undefined>>,
): Promise<RollupChange[]> {
  const sequence = record.dynamodb?.SequenceNumber;
  const image = (record.dynamodb?.NewImage ?? record.dynamodb?.OldImage) as StreamImage | undefined;
  if (!sequence || !image) return [];
  const old = record.dynamodb?.OldImage
    ? submissionOfImage(record.dynamodb.OldImage as StreamImage)
    : undefined;
  const before = old?.submission;
  const after = record.dynamodb?.NewImage
    ? submissionOfImage(record.dynamodb.NewImage as StreamImage)
    : undefined;
  const submission = (after?.submission ?? before) as Submission;
  let read = forms.get(submission.formId);
  if (!read) {
    read = getForm(submission.formId);
    forms.set(submission.formId, read);
  }
  const form = await read;
  if (!form) return []; // the form is gone, and its buckets with it
  const was = before ? countersOf(before, form) : {};
  const moved =
    record.eventName === 'REMOVE'
      ? removalOf(was)
      : difference(was, after ? countersOf(after.submission, form) : {});
  // A signup is new when stored, or when confirmed (docs/submit.md#confirm-by-email).
  const arrived = record.eventName === 'INSERT' || (isPending(before ?? {}) && moved.s === 1);
  if (arrived && form.type === 'waitlist' && moved.s === 1 && after) {
    // Keyed by the hash the submit path stored (docs/privacy.md#the-signup-mark).
    const sender = after.signupHash;
    if (sender && (await firstSignupOf(form.id, sender, submission.id))) moved.e = 1;
  }
  if (record.eventName === 'REMOVE' && form.type === 'waitlist' && old) {
    await forgetSignupOf(form, old);
  }
  // A change that moves nothing (a star) writes nothing.
  if (Object.keys(moved).length === 0) return [];
  const hour = hourOf(submission.createdAt);
  const change = { formId: form.id, sequence, index };
  const changes: RollupChange[] = [
    { ...change, bucket: { kind: 'hour', key: hour }, counters: moved },
  ];
  if (form.type === 'waitlist' && moved.s) {
    const day = hour.slice(0, 8);
    changes.push({
      ...change,
      bucket: { kind: 'month', key: day.slice(0, 6) },
      counters: { [day]: moved.s },
    });
  }
  return changes;
}

/**
 * A deleted signup (an erase, the form's retention, a delete) takes its
 * mark along when the mark is its own (docs/privacy.md#the-signup-mark).
 * A submission stored before signups were keyed has no hash: its mark, if
 * an older version made it, is found by the unkeyed SHA-256 of its address.
 */
async function forgetSignupOf(
  form: FormRecord,
  old: ReturnType<typeof submissionOfImage>,
): Promise<void> {
  const { submission, hints, signupHash } = old;
  if (signupHash) {
    await forgetSignup(form.id, { hash: signupHash }, submission.id);
    return;
  }
  const email = submitterAddress(submission, form, hints);
  if (email) await forgetSignup(form.id, { legacyEmail: email }, submission.id);
}
