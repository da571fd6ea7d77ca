import type { DynamoDBRecord } from 'aws-lambda';
import { isPending } from '#domain/confirmation-state.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';
import { countersOf, difference, hourOf, removalOf } from '#domain/summary-counters.ts';
import { getForm } from '#store/forms.ts';
import { submissionOfImage } from '#store/stream-images.ts';
import { applyToHour, applyToMonth, firstSignupOf, forgetSignup } from '#store/summary-buckets.ts';
import { streamWorker } from './batch-worker.ts';

type StreamImage = Parameters<typeof submissionOfImage>[0];

/**
 * Keeps the summary's hour buckets (docs/analytics.md#summary): every change
 * of a submission (filter SUBMISSION_CHANGE_PATTERN) moves its hour's
 * counters by the difference between what it counted before and after. Each
 * bucket takes a record once (its last sequence number), and records are
 * handled in order: after a record fails, the batch's later records fail
 * too, so a retry never finds a later change applied before an earlier one.
 */
export const handler = streamWorker(() => {
  const forms = new Map<string, Promise<FormRecord | undefined>>();
  let failed = false;
  return async (record) => {
    if (failed) throw new Error('an earlier record of the batch failed');
    try {
      await rollUp(record, forms);
    } catch (error) {
      failed = true;
      throw error;
    }
  };
});

async function rollUp(
  record: DynamoDBRecord,
  forms: Map<string, Promise<FormRecord | undefined>>,
): Promise<void> {
  const sequence = record.dynamodb?.SequenceNumber;
  const image = (record.dynamodb?.NewImage ?? record.dynamodb?.OldImage) as StreamImage | undefined;
  if (!sequence || !image) return;
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
  if (!form) return; // the form is gone, and its buckets with it
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
  const hour = hourOf(submission.createdAt);
  await applyToHour(form.id, hour, moved, sequence);
  if (form.type === 'waitlist' && moved.s) {
    await applyToMonth(form.id, hour.slice(0, 8), moved.s, sequence);
  }
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
