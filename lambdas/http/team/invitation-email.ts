import type { APIGatewayProxyEvent } from 'aws-lambda';
import { enqueue } from '#aws/queues.ts';
import { ServiceError } from '#domain/errors.ts';
import type { SignInJob } from '#domain/sign-in-job.ts';
import type { Caller } from '#http/middleware/caller-auth.ts';
import { sourceIpOf } from '#http/request.ts';
import { admitSignInEmail } from '#store/sign-in-counts.ts';

/**
 * Admits one invitation email to `email` and queues it: the sign-ins
 * worker sends it with a link and code of its own, as for any sign-in
 * email. An invitation counts toward the address's sign-in emails like any
 * other: over them, 429 and nothing is sent, so inviting (or resending)
 * again and again sends no more mail (docs/people.md#sign-in-bounds).
 * Inviting and resending both come here, so they cannot drift apart.
 */
export async function admitInvitation(email: string, event: APIGatewayProxyEvent, now: Date) {
  const admission = await admitSignInEmail(email, sourceIpOf(event), now.getTime(), {
    anyAddress: false,
  });
  if (!admission.admitted) {
    throw new ServiceError(
      'rate_limited',
      'This address has been sent too many sign-in emails; invite it again later',
      { headers: { 'retry-after': String(admission.retryAfterSeconds) } },
    );
  }
}

/**
 * Queues the invitation's own email (docs/people.md#invitations): which team,
 * and who invited (the caller's name and address; an operator's key names
 * nobody).
 */
export async function queueInvitation(email: string, now: Date, caller: Caller): Promise<void> {
  const inviter = caller.member
    ? { name: caller.member.name, email: caller.member.email }
    : caller.email
      ? { email: caller.email }
      : {};
  await enqueue('signIns', [
    {
      email,
      requestedAt: now.toISOString(),
      reason: 'invite',
      invitation: { teamId: caller.team.teamId, inviter },
    } satisfies SignInJob,
  ]);
}
