import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { classifySendError, sendEmail } from '#aws/email.ts';
import { ensureTenant, tenantSendingStatus } from '#aws/email-tenants.ts';
import { config } from '#config';
import {
  CONFIRMATION_ADDRESS_SECONDS,
  confirmExpiresAt,
  confirmToken,
  confirmUrl,
} from '#domain/confirmation.ts';
import { confirmationAddress, confirmationEmail } from '#domain/confirmation-email.ts';
import { isPending } from '#domain/confirmation-state.ts';
import type { EmailJob } from '#domain/delivery-channels.ts';
import { sesTags, suppressionAddress } from '#domain/email-events.ts';
import {
  autoReply,
  type EmailMessage,
  malwareNotice,
  notificationRecipients,
  ownerNotification,
  submitterAddress,
} from '#domain/email-messages.ts';
import { tenantIsPaused, tenantNameOf } from '#domain/email-tenants.ts';
import { mailboxHash, mailboxOf } from '#domain/mailbox.ts';
import { routedRecipients } from '#domain/notify-routing.ts';
import { windowAt } from '#domain/rate-limit.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import {
  claimEmail,
  recordEmailRefused,
  recordEmailSent,
  releaseEmail,
} from '#store/deliveries.ts';
import { type DeliveryContext, readDeliveryContext } from '#store/delivery-context.ts';
import {
  autoReplyFormScope,
  autoReplyRecipientScope,
  confirmationScope,
  countRequest,
  giveBackMark,
  takeMark,
  uncountRequest,
} from '#store/request-counts.ts';
import { suppressedAmong } from '#store/suppressions.ts';
import { setTeamEmailPaused, setTeamTenant } from '#store/teams.ts';
import { EMAIL_CLAIM_LEASE_SECONDS, emailSpacingMs } from '#workers';
import { queueWorker } from './batch-worker.ts';

/**
 * Sends one email of one submission through SES: the owner notification (one
 * message to all its recipients, `notificationRecipients`) or the auto-reply,
 * built from the form's settings as they are now. Spam is
 * never emailed. Each email is claimed before it is sent and marked sent
 * once SES took it, so a message received twice sends it once. A claim is a
 * lease: when its worker died before the send (a timeout, a crash), the
 * redelivered message takes it over, so no email is lost, and a rare one
 * goes twice (a death after SES accepted it, before it was marked sent). A
 * send that failed for now gives the claim back and is retried by the queue
 * (then its dead-letter queue); one SES refused for good (a bad address, a
 * rejected message) is logged, counted, marked and not retried.
 *
 * The worker keeps under the SES sending rate (`sesSendRatePerSecond`,
 * docs/operations.md#bounded-workers): its event source runs at most
 * `emailWorkerConcurrency` invocations, and an invocation lasts at least
 * `emailSpacingMs` for each email it handed SES, so all of them together
 * send no faster than the rate even when SES answers at once.
 */
export async function handler(event: SQSEvent, context?: Context) {
  const startedAt = performance.now();
  const tally = { sends: 0 };
  try {
    return await queueWorker(() => (record) => send(record, tally), { parallel: true })(
      event,
      context,
    );
  } finally {
    const least = tally.sends * emailSpacingMs(config.sesSendRatePerSecond);
    const left = least - (performance.now() - startedAt);
    if (left > 0) await sleep(left);
  }
}

async function send(record: SQSRecord, tally: { sends: number }): Promise<void> {
  const job = JSON.parse(record.body) as EmailJob;
  const context = await readDeliveryContext(job.formId, job.submissionId);
  const message = context && emailFor(job, context);
  if (!message) {
    log.info('email skipped', { ...job, reason: 'nothing to send' });
    return;
  }
  const claimedAt = new Date();
  const claim = await claimEmail(
    job.formId,
    job.submissionId,
    job.kind,
    claimedAt,
    EMAIL_CLAIM_LEASE_SECONDS,
  );
  if (claim === 'final') {
    log.info('email skipped', { ...job, reason: 'final: sent, or refused for good' });
    return;
  }
  if (claim === 'held') {
    // Another delivery of this message is sending it, or died doing so: this copy comes
    // back after the queue's visibility timeout, past the lease, to find it sent or to
    // take the claim over. Deleted now, it could be the message's last copy.
    log.info('email held by another delivery', { ...job });
    throw new Error('email claimed by another delivery; looked at again later');
  }
  // The team's suppression list (docs/delivery.md#suppressed-addresses): an address that
  // bounced for good or complained gets nothing more; a suppressed Cc is left out.
  const teamId = context.form.teamId;
  const suppressed = await suppressedAmong(
    teamId,
    [message.to, ...(message.cc ?? [])].map(suppressionAddress),
  );
  const [to, ...cc] = [message.to, ...(message.cc ?? [])].filter(
    (address) => !suppressed.has(suppressionAddress(address)),
  );
  if (!to) {
    count('EmailSuppressed', 1, { kind: job.kind });
    log.info('email skipped', { ...job, reason: 'recipient suppressed' });
    await recordEmailRefused(job.formId, job.submissionId, job.kind, new Date(), 'suppressed');
    return;
  }
  // A suppressed To with a Cc left: the first Cc takes its place, the rest stay Cc.
  const sendable: EmailMessage = { ...message, to, cc: message.cc ? cc : undefined };
  // Counted once the email is this delivery's to send: a duplicate or held delivery of the
  // same auto-reply does not use up the address's allowance.
  // A confirmation is visitor-addressed like an auto-reply: under the same bounds, and one a
  // day per address and form (docs/delivery.md#confirmation-emails).
  const allowance =
    job.kind === 'autoreply' || job.kind === 'confirm'
      ? await takeAutoReply(message.to, job.formId, context.form.autoreplyHourlyLimit, {
          confirmation: job.kind === 'confirm',
        })
      : undefined;
  if (allowance && !allowance.within) {
    count(job.kind === 'confirm' ? 'ConfirmationLimited' : 'AutoReplyLimited');
    log.info('email skipped', {
      ...job,
      reason:
        allowance.by === 'form'
          ? 'visitor emails of this form are over its hourly limit'
          : allowance.by === 'address'
            ? 'a confirmation went to this address for this form in the last 24 hours'
            : 'visitor emails to this mailbox are over the limit',
    });
    await recordEmailRefused(job.formId, job.submissionId, job.kind, new Date(), 'limit');
    return;
  }
  let messageId: string;
  // The team's own SES tenant (docs/delivery.md#one-team-cannot-pause-everyones-mail).
  const wanted = config.sesTenants ? tenantNameOf(teamId) : undefined;
  const tenantName = wanted && (await readyTenant(teamId, wanted, context.team.sesTenant, job));
  const send = (tenant: string | undefined) => {
    tally.sends += 1;
    return sendEmail(
      sendable,
      { address: config.emailSenderAddress },
      {
        configurationSet: config.emailConfigurationSet,
        tags: sesTags({
          formId: job.formId,
          submissionId: job.submissionId,
          kind: job.kind,
          teamId,
        }),
        tenantName: tenant,
      },
    );
  };
  try {
    try {
      ({ messageId } = await send(tenantName));
    } catch (error) {
      if (!tenantName || (error as { name?: unknown })?.name !== 'NotFoundException') throw error;
      // The tenant the team was marked with is gone (deleted, a new account, a restarted
      // local stack): made again, and the email sent once more.
      const again = await readyTenant(teamId, tenantName, undefined, job);
      ({ messageId } = await send(again));
    }
  } catch (error) {
    if ((error as { name?: unknown })?.name === 'SendingPausedException') {
      await notePause(teamId, tenantName, job);
    }
    if (classifySendError(error) === 'permanent') {
      count('EmailRejected', 1, { kind: job.kind });
      log.warn('email refused by SES, not retried', { ...job, ...errorFields(error) });
      await recordEmailRefused(job.formId, job.submissionId, job.kind, new Date(), 'ses');
      return;
    }
    count('EmailRetried', 1, { kind: job.kind });
    // Nothing went out: the retry takes the claim and the address's allowance anew.
    await allowance
      ?.giveBack()
      .catch((undo: unknown) =>
        log.warn('auto-reply allowance not given back', { ...job, ...errorFields(undo) }),
      );
    await releaseEmail(job.formId, job.submissionId, job.kind, claimedAt);
    throw error;
  }
  count('EmailSent', 1, { kind: job.kind });
  log.info('email sent', { ...job, messageId });
  if (context.team.emailPausedAt) await setTeamEmailPaused(teamId, null).catch(() => false);
  // SES has it. Throwing would have the queue redeliver the message and send it again once
  // the lease ends, so a failed mark is logged, not thrown: only a stray duplicate of the
  // message could then send it twice.
  try {
    await recordEmailSent(job.formId, job.submissionId, job.kind, {
      messageId,
      now: new Date(),
      to: [sendable.to, ...(sendable.cc ?? [])],
    });
  } catch (error) {
    log.error('email sent but not marked sent', { ...job, messageId, ...errorFields(error) });
  }
}

/**
 * SES refused a send as paused. SES names every pause so (the account, the
 * configuration set, the tenant), so the tenant's own status decides: the team
 * is marked paused (the owner sees it in GET /v1/team, the operator gets the
 * EmailTenantPaused alarm) only when GetTenant says its tenant is `DISABLED`.
 * Any other pause, or a status SES would not give, is the whole sending's:
 * counted as EmailSendingPaused (its own alarm), no team marked
 * (docs/delivery.md#one-team-cannot-pause-everyones-mail).
 */
async function notePause(
  teamId: string,
  tenantName: string | undefined,
  job: EmailJob,
): Promise<void> {
  let status: string | undefined;
  if (tenantName) {
    try {
      status = await tenantSendingStatus(tenantName);
    } catch (error) {
      log.warn('SES tenant status not read after a paused send', { ...job, ...errorFields(error) });
    }
  }
  if (tenantIsPaused(status)) {
    count('EmailPaused');
    await setTeamEmailPaused(teamId, new Date().toISOString()).catch(() => false);
    return;
  }
  count('EmailSendingPaused');
  log.warn('SES paused sending beyond the team’s tenant', {
    ...job,
    tenantName,
    tenantStatus: status,
  });
}

/**
 * The team's SES tenant made ready once (then marked on the team), or
 * undefined when that failed: the email then goes out on the account's
 * reputation rather than being lost for a tenant that could not be made
 * (a region without tenants, a setup two emails raced on).
 */
async function readyTenant(
  teamId: string,
  name: string,
  marked: string | undefined,
  job: EmailJob,
): Promise<string | undefined> {
  if (marked === name) return name;
  try {
    await ensureTenant(name, {
      identityArn: config.emailIdentityArn,
      configurationSetArn: config.emailConfigurationSetArn,
    });
    await setTeamTenant(teamId, name);
    return name;
  } catch (error) {
    count('EmailTenantUnready');
    log.warn('SES tenant not ready: sent without it', { ...job, ...errorFields(error) });
    return undefined;
  }
}

/** The email the job asks for, or undefined when it no longer applies. */
function emailFor(job: EmailJob, context: DeliveryContext): EmailMessage | undefined {
  const { form, team, submission, hints } = context;
  if (submission.isSpam) return undefined;
  if (job.kind === 'confirm') return confirmationFor(context);
  // Held for its visitor's confirmation: nothing else goes before the click.
  if (isPending(submission)) return undefined;
  // Whether or not notifications are on: a file was found infected (scanChannelsFor).
  if (job.kind === 'malware') {
    const { to, cc } = notificationRecipients(form, team);
    return malwareNotice({ form, submission, recipient: to, cc, baseUrl: config.baseUrl });
  }
  if (job.kind === 'notification') {
    if (!form.notifyEnabled) return undefined;
    // Routing by answer: the rules that hold on the stored answers (docs/forms.md#routing-by-answer).
    const routed = routedRecipients(form, submission);
    const { to: recipient, cc } = notificationRecipients(form, team, routed);
    return ownerNotification({ form, submission, hints, recipient, cc, baseUrl: config.baseUrl });
  }
  const { to: recipient } = notificationRecipients(form, team);
  if (team.plan !== 'pro' || !form.autoreplyEnabled) return undefined;
  const to = submitterAddress(submission, form, hints);
  return to ? autoReply({ form, submission, to, replyTo: recipient }) : undefined;
}

/**
 * The confirmation email of a pending submission (docs/delivery.md#confirmation-emails),
 * with its signed link, or undefined once confirmed or when its answer is no address.
 */
function confirmationFor({ form, submission }: DeliveryContext): EmailMessage | undefined {
  if (!isPending(submission) || !submission.confirmation) return undefined;
  const to = confirmationAddress(submission, form);
  if (!to) return undefined;
  const expiresAt = confirmExpiresAt(
    submission.confirmation.requestedAt,
    config.confirmLinkSeconds,
  );
  const token = confirmToken(config.keyedHashSecret, {
    teamId: form.teamId,
    formId: form.id,
    submissionId: submission.id,
    expiresAt: Math.floor(expiresAt / 1000),
  });
  return confirmationEmail({ form, to, link: confirmUrl(config.baseUrl, token), expiresAt });
}

/** Auto-replies one mailbox may get an hour, from every form of the deployment. */
export const AUTOREPLIES_PER_RECIPIENT_PER_HOUR = 3;

/**
 * Counts one auto-reply this hour against the recipient's mailbox (its
 * +tags and Gmail dots aside: `mailboxOf`) and against the form's own hourly
 * limit; `within` when both have room. A refusal gives back what it took,
 * and `giveBack` undoes both when the send failed for now.
 */
async function takeAutoReply(
  address: string,
  formId: string,
  formLimit: number,
  options: { confirmation?: boolean } = {},
) {
  const now = Date.now();
  const window = windowAt(now, 3600);
  // The mailbox by its keyed hash only (docs/privacy.md#while-a-post-waits-for-confirmation).
  const hashed = mailboxHash(config.keyedHashSecret, mailboxOf(address));
  const mailbox = autoReplyRecipientScope(hashed);
  const form = autoReplyFormScope(formId);
  const perForm = confirmationScope(formId, hashed);
  const taken: (() => Promise<void>)[] = [];
  const giveBack = async () => {
    await Promise.all(taken.map((undo) => undo()));
  };
  const refuse = async (by: 'address' | 'recipient' | 'form') => {
    await giveBack();
    return { within: false, by, giveBack: async () => {} };
  };
  // The address's 24 hours first (one mark, rolling): a repeat for one form takes nothing
  // from the mailbox's hour.
  if (options.confirmation) {
    if (!(await takeMark(perForm, now, CONFIRMATION_ADDRESS_SECONDS))) return refuse('address');
    taken.push(() => giveBackMark(perForm));
  }
  taken.push(() => uncountRequest(mailbox, window));
  if ((await countRequest(mailbox, window)) > AUTOREPLIES_PER_RECIPIENT_PER_HOUR)
    return refuse('recipient');
  taken.push(() => uncountRequest(form, window));
  if ((await countRequest(form, window)) > formLimit) return refuse('form');
  return { within: true, by: undefined, giveBack };
}
