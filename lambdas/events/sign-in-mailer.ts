import { createHash } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { classifySendError, sendEmail } from '#aws/email.ts';
import { config } from '#config';
import type { EmailMessage } from '#domain/email-messages.ts';
import { INVITATION_TTL_SECONDS, invitationEmail } from '#domain/invitation.ts';
import { issueSignIn, SIGN_IN_TTL_SECONDS, signInEmail } from '#domain/sign-in.ts';
import {
  isFailureJob,
  type SignInFailureJob,
  type SignInJob,
  type SignInQueueMessage,
} from '#domain/sign-in-job.ts';
import { errorFields, log } from '#log';
import { recordAuditOnce } from '#store/audit.ts';
import { getTeams, membershipsOf } from '#store/members.ts';
import { putInvitationLink, putSignIn } from '#store/sign-ins.ts';
import { queueWorker } from './batch-worker.ts';

/**
 * The sign-ins queue's worker. It sends the sign-in email a
 * `POST /v1/auth/sign-in` (or an invitation) asked for, when the address is
 * a member of some team; an address that is none gets nothing, and the
 * route said the same to both. Each email has a link of its own (earlier
 * links keep working) and a code that replaces the address's earlier one.
 * It also records the verify route's failures in the audit trail of each
 * team of the address, out of the route so that its answer takes the same
 * time for anyone's address and nobody's (docs/people.md#sign-in-bounds).
 * Logs name the address only by a hash.
 */
export const handler = queueWorker(() => handle, { parallel: true });

async function handle(record: SQSRecord): Promise<void> {
  const message = JSON.parse(record.body) as SignInQueueMessage;
  if (isFailureJob(message)) await recordFailure(message);
  else await mail(message);
}

/** The SES tags of every sign-in email: its kind, nothing that names a form or a person. */
export const SIGN_IN_TAGS = [{ Name: 'kind', Value: 'signin' }];

function addressHash(email: string) {
  return { address: createHash('sha256').update(email).digest('hex').slice(0, 16) };
}

/**
 * One event in each team of the address (the address is the actor; the
 * target is the team's member of that address), none for nobody's address.
 * The event's id was made when the verify failed: the trail keeps its order,
 * and a second delivery of the message writes nothing more.
 */
async function recordFailure(job: SignInFailureJob): Promise<void> {
  const memberships = await membershipsOf(job.email);
  for (const { teamId, userId } of memberships) {
    await recordAuditOnce({
      eventId: job.eventId,
      teamId,
      action: job.failure.startsWith('link') ? 'auth.link_failed' : 'auth.code_failed',
      actor: { kind: 'anonymous', userId: null, email: job.email, keyId: null },
      target: userId,
      details: { reason: job.failure },
      ip: job.ip,
      at: job.at,
    });
  }
}

async function mail(job: SignInJob): Promise<void> {
  const who = addressHash(job.email);
  const now = new Date();
  // Past the life of what it would carry, an email is no use: 15 minutes, 7 days for an invitation.
  const life = job.invitation ? INVITATION_TTL_SECONDS : SIGN_IN_TTL_SECONDS;
  if (now.getTime() - Date.parse(job.requestedAt) > life * 1000) {
    log.info('sign-in email not sent: asked too long ago', who);
    return;
  }
  const memberships = await membershipsOf(job.email);
  if (memberships.length === 0) {
    log.info('sign-in email not sent: no member has this address', who);
    return;
  }
  const message = job.invitation
    ? await invitationMessage(job, job.invitation, memberships, now)
    : await signInMessage(job, memberships, now);
  if (!message) {
    log.info('invitation not sent: no longer a member of that team', who);
    return;
  }
  try {
    // With the stack's configuration set, so its reputation metrics and alarms count the
    // sign-in mail too (docs/operations.md#alarms). Tagged `kind=signin` alone: no form or
    // submission to record a fate on, so the event worker skips its events.
    await sendEmail(
      message,
      { address: config.emailSenderAddress },
      { configurationSet: config.emailConfigurationSet, tags: SIGN_IN_TAGS },
    );
  } catch (error) {
    if (classifySendError(error) === 'permanent') {
      log.warn('sign-in email refused by SES', { ...who, ...errorFields(error) });
      return;
    }
    throw error;
  }
  log.info('sign-in email sent', { ...who, reason: job.reason });
}

/** A sign-in email: a link and a code, 15 minutes, to the address's teams. */
async function signInMessage(
  job: SignInJob,
  memberships: readonly { teamId: string }[],
  now: Date,
): Promise<EmailMessage> {
  const teams = await getTeams(memberships.map((m) => m.teamId));
  const issued = issueSignIn(job.email);
  await putSignIn(job.email, issued, now);
  return signInEmail({
    to: job.email,
    baseUrl: config.baseUrl,
    token: issued.token,
    code: issued.code,
    teamNames: teams.map((team) => team.name),
  });
}

/**
 * The invitation's own email (docs/people.md#invitations): who invited the
 * address to which team, with a link that works once for 7 days and no
 * code. None when the member was removed before it went out.
 */
async function invitationMessage(
  job: SignInJob,
  invitation: NonNullable<SignInJob['invitation']>,
  memberships: readonly { teamId: string }[],
  now: Date,
): Promise<EmailMessage | undefined> {
  if (!memberships.some((m) => m.teamId === invitation.teamId)) return undefined;
  const [team] = await getTeams([invitation.teamId]);
  if (!team) return undefined;
  const { token, tokenHash } = issueSignIn(job.email);
  const endsAt = await putInvitationLink(job.email, tokenHash, now, INVITATION_TTL_SECONDS);
  return invitationEmail({
    to: job.email,
    baseUrl: config.baseUrl,
    token,
    teamId: invitation.teamId,
    teamName: team.name,
    inviter: invitation.inviter,
    endsAt,
  });
}
