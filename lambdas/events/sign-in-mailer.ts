import { createHash } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { classifySendError, sendEmail } from '#aws/email.ts';
import { config } from '#config';
import { issueSignIn, SIGN_IN_TTL_SECONDS, signInEmail } from '#domain/sign-in.ts';
import type { SignInJob } from '#domain/sign-in-job.ts';
import { errorFields, log } from '#log';
import { getTeams, membershipsOf } from '#store/members.ts';
import { putSignIn } from '#store/sign-ins.ts';
import { queueWorker } from './batch-worker.ts';

/**
 * Sends the sign-in email a `POST /v1/auth/sign-in` (or an invitation)
 * asked for, when the address is a member of some team; an address that is
 * none gets nothing, and the route said the same to both. Each message
 * issues a new link and code, replacing the address's earlier ones. Logs
 * name the address only by a hash.
 */
export const handler = queueWorker(() => mail, { parallel: true });

async function mail(record: SQSRecord): Promise<void> {
  const job = JSON.parse(record.body) as SignInJob;
  const who = { address: createHash('sha256').update(job.email).digest('hex').slice(0, 16) };
  const now = new Date();
  if (now.getTime() - Date.parse(job.requestedAt) > SIGN_IN_TTL_SECONDS * 1000) {
    log.info('sign-in email not sent: asked too long ago', who);
    return;
  }
  const memberships = await membershipsOf(job.email);
  if (memberships.length === 0) {
    log.info('sign-in email not sent: no member has this address', who);
    return;
  }
  const teams = await getTeams(memberships.map((m) => m.teamId));
  const issued = issueSignIn(job.email);
  await putSignIn(job.email, issued, now);
  const message = signInEmail({
    to: job.email,
    baseUrl: config.baseUrl,
    token: issued.token,
    code: issued.code,
    teamNames: teams.map((team) => team.name),
  });
  try {
    await sendEmail(message, { address: config.emailSenderAddress });
  } catch (error) {
    if (classifySendError(error) === 'permanent') {
      log.warn('sign-in email refused by SES', { ...who, ...errorFields(error) });
      return;
    }
    throw error;
  }
  log.info('sign-in email sent', { ...who, reason: job.reason });
}
