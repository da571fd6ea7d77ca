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
 * batch's changes to one bucket are added up and written once (rollupRuns;
 * what came before a waitlist's removal is written before it). Each bucket
 * takes a record once (its last sequence number). When a record fails, it
 * and the batch's later records fail, so a retry starts from it and never
 * finds a later change of a bucket applied before an earlier one.
 */
export const handler = streamWorker((batch) => {
  // Powertools hands over the event's own record objects.
  const place = new Map(batch.map((record, index) => [record, index]));
  let rolled: Promise<Stopped> | undefined;
  return async (record) => {
    rolled ??= rollUpBatch(batch);
    const stopped = await rolled;
    if ((place.get(record) ?? 0) < stopped.at) return;
    throw stopped.error ?? new Error('an earlier record of the batch failed');
  };
});

async function rollUpBatch(batch: readonly DynamoDBRecord[]): Promise<Stopped> {
  const forms = new Map<string, Promise<FormRecord | undefined>>();
  let changes: RollupChange[] = [];
  // In the order of each bucket's first record: a failed write stops the batch at that record,
  // and every bucket written before it took only records before it or all of its own.
  const write = async (): Promise<Stopped | undefined> => {
    for (const run of rollupRuns(changes)) {
      try {
        await applyRollupRun(run);
      } catch (error) {
        return { at: run.index, error };
      }
    }
    changes = [];
    return undefined;
  };
  for (const [index, record] of batch.entries()) {
    try {
      // A waitlist's removal takes its signup mark away: what came before is written first, so
      // a retry never asks an earlier signup whether it was first after a later record's
      // removal (it would find a later signup's mark and lose its count).
      if ((await removesSignup(record, forms)) && changes.length > 0) {
        const failed = await write();
        if (failed) return failed;
      }
      changes.push(...(await changesOf(record, index, forms)));
    } catch (error) {
      return (await write()) ?? { at: index, error };
    }
  }
  return (await write()) ?? { at: batch.length };
}

/** The record's form, read once a batch. */
function formOf(
  formId: string,
  forms: Map<string, Promise<FormRecord | undefined>>,
): Promise<FormRecord | undefined> {
  let read = forms.get(formId);
  if (!read) {
    read = getForm(formId);
    forms.set(formId, read);
  }
  return read;
}

/** Whether the record removes a waitlist's signup (and so perhaps its mark). */
async function removesSignup(
  record: DynamoDBRecord,
  forms: Map<string, Promise<FormRecord | undefined>>,
): Promise<boolean> {
  const image = record.dynamodb?.OldImage as StreamImage | undefined;
  if (record.eventName !== 'REMOVE' || !image) return false;
  const form = await formOf(submissionOfImage(image).submission.formId, forms);
  return form?.type === 'waitlist';
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
  const form = await formOf(submission.formId, forms);
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
