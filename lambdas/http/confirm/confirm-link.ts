import { config } from '#config';
import { onAllowedSite } from '#domain/addresses.ts';
import { type ConfirmLink, type ConfirmOutcome, readConfirmToken } from '#domain/confirmation.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';
import { monthlyAllowance, nearLimitFrom, usageMonth } from '#domain/submit-rules.ts';
import { personMailbox, personPlaceHash } from '#domain/unique-person.ts';
import { errorFields, log } from '#log';
import { closeFormAtLimit } from '#store/forms.ts';
import { confirmPending, getSubmission } from '#store/submissions.ts';
import { readSubmitContext, type SubmitContext } from '#store/submit-context.ts';

/**
 * What a confirmation link leads to (docs/submit.md#confirm-by-email): GET
 * reads (`lookUp`), POST confirms (`confirm`). A forged or unknown link says
 * so and changes nothing; an expired one names where to send the form again.
 */
export type LinkState =
  | { state: 'open'; formName: string }
  | { state: 'ended'; outcome: ConfirmOutcome; againUrl?: string };

interface Found {
  link: ConfirmLink;
  context: SubmitContext;
  submission: Submission;
}

/** The token read and what it names, or the page that ends it there. */
async function find(
  token: string | undefined,
  now: Date,
): Promise<{ found: Found } | { ended: LinkState & { state: 'ended' } }> {
  const reading = readConfirmToken(config.keyedHashSecret, token ?? '', now);
  if (reading.status === 'forged') return { ended: { state: 'ended', outcome: 'not_valid' } };
  const { link } = reading;
  // One round trip: the form with its counters, its team and usage; the submission.
  const [context, submission] = await Promise.all([
    readSubmitContext(link.formId, link.teamId, usageMonth(now)),
    getSubmission(link.formId, link.submissionId),
  ]);
  if (!context) return { ended: { state: 'ended', outcome: 'not_valid' } };
  if (submission?.confirmation?.status === 'confirmed') {
    return { ended: { state: 'ended', outcome: 'already_confirmed' } };
  }
  if (reading.status === 'expired') {
    return {
      ended: { state: 'ended', outcome: 'expired', againUrl: againUrl(context.form, submission) },
    };
  }
  if (submission?.confirmation?.status !== 'pending') {
    return { ended: { state: 'ended', outcome: 'not_valid' } };
  }
  return { found: { link, context, submission } };
}

/** GET: the button's page, or what has become of the answer. Changes nothing. */
export async function lookUp(token: string | undefined, now: Date): Promise<LinkState> {
  const result = await find(token, now);
  return 'ended' in result
    ? result.ended
    : { state: 'open', formName: result.found.context.form.name };
}

/**
 * POST: confirms the pending submission in one transaction (store
 * confirmPending): counted under the form's limit exactly as a new post,
 * its delivery released by the stream seeing the change.
 */
export async function confirm(token: string | undefined, now: Date): Promise<LinkState> {
  const result = await find(token, now);
  if ('ended' in result) return result.ended;
  const { link, submission, context } = result.found;
  // The counters and usage as read: they guide the transaction, whose conditions decide.
  const { form, team } = context;
  const allowance = monthlyAllowance(team, {
    free: config.freeMonthlySubmissions,
    pro: config.proMonthlySubmissions,
  });
  const outcome = await confirmPending({
    submission,
    teamId: team.teamId,
    usage: {
      month: usageMonth(now),
      allowance,
      nearLimitFrom: nearLimitFrom(allowance),
      known: context.usage,
    },
    counters: context.counters,
    now,
    // One answer per person: decided here, at the click (docs/forms.md#one-answer-per-person).
    personPlace: personPlaceOf(form, team.teamId, submission),
  });
  if (outcome.confirmed) {
    if (form.maxSubmissions !== null && context.counters.counted + 1 >= form.maxSubmissions) {
      await recordReachedLimit(form.id, now);
    }
    log.info('submission confirmed', { formId: form.id, submissionId: submission.id });
    return { state: 'ended', outcome: 'confirmed' };
  }
  switch (outcome.reason) {
    case 'not_pending': {
      // Another click won, or it was erased or expired meanwhile.
      const current = await getSubmission(link.formId, link.submissionId);
      return {
        state: 'ended',
        outcome: current?.confirmation?.status === 'confirmed' ? 'already_confirmed' : 'not_valid',
      };
    }
    case 'full':
      await recordReachedLimit(form.id, now);
      return { state: 'ended', outcome: 'full' };
    case 'closed':
      return {
        state: 'ended',
        outcome: form.closedReason === 'max_submissions' ? 'full' : 'closed',
      };
    case 'limit_reached':
      return { state: 'ended', outcome: 'closed' };
    case 'form_gone':
      return { state: 'ended', outcome: 'not_valid' };
    case 'already_answered':
      return { state: 'ended', outcome: 'already_answered' };
  }
}

/** Closes the form once its count reached `maxSubmissions` (as the submit path does). */
async function recordReachedLimit(formId: string, now: Date): Promise<void> {
  await closeFormAtLimit(formId, now).catch((error: unknown) =>
    log.warn('could not record the reached submission limit', { formId, ...errorFields(error) }),
  );
}

/** The place the click takes on a form with `unique`, by the keyed hash of the person's mailbox. */
function personPlaceOf(
  form: FormRecord,
  teamId: string,
  submission: Submission,
): { hash: string } | undefined {
  const mailbox = personMailbox(form.unique, submission.data);
  return mailbox ? { hash: personPlaceHash(config.keyedHashSecret, teamId, mailbox) } : undefined;
}

/**
 * Where to send the form again: the page it was sent from when that page is
 * on one of the form's `allowedOrigins` (the site's own form), else the
 * form's hosted page. The stored referrer is whatever the post's `Referer`
 * said, which a script chooses: a form open to every site links no referrer,
 * so an expired link's page never sends a visitor where a stranger's post
 * pointed (docs/submit.md#confirm-by-email).
 */
function againUrl(form: FormRecord, submission: Submission | undefined): string {
  const referrer = submission?.meta.referrer;
  if (referrer && onAllowedSite(form.allowedOrigins, referrer)) return referrer;
  return `${config.baseUrl}/f/${form.key}`;
}
