import { randomUUIDv7 } from 'node:crypto';
import { ServiceError, unauthorized } from '#domain/errors.ts';
import { verifyInput } from '#domain/member-input.ts';
import { toMemberView } from '#domain/members.ts';
import type { SignInFailure, SignInFailureJob } from '#domain/sign-in-job.ts';
import { audit } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { anonymousRoute } from '#http/management-route.ts';
import { sourceIpOf } from '#http/request.ts';
import { json } from '#http/respond.ts';
import { membersOfAddress, recordSignIn } from '#store/members.ts';
import { admitVerify } from '#store/sign-in-counts.ts';
import { useSignInCode, useSignInToken } from '#store/sign-ins.ts';
import { startSession } from './session-cookie.ts';

const failed = () =>
  unauthorized(
    'The link or code is wrong, used or expired, or the code was replaced by a newer one or tried too often this hour; a link from a recent email still works, or ask for a new one',
  );

/**
 * `POST /v1/auth/verify { token } | { email, code }`: uses the sign-in once
 * and starts a session (the cookie), in `teamId` when given and the address
 * is a member there, else in the team the member signed in to last. A
 * failed code, and a link used again or too late, are recorded in the audit
 * trail of each of the address's teams by the sign-in worker: the answer
 * does the same work whether or not the address is anyone's
 * (docs/people.md#sign-in-bounds).
 */
export const contract = defineContract({
  tag: 'Sign-in',
  body: verifyInput,
  answers: [
    {
      status: 200,
      description: 'Signed in: a new session.',
      body: 'SignedIn',
      headers: {
        'set-cookie': 'The session cookie (`fs_session`, HttpOnly, Secure, SameSite=Lax).',
      },
    },
  ],
  errors: ['unauthorized'],
});

/**
 * The SQS client, loaded by the first attempt that fails (its mail to the
 * address): a cold start whose sign-in succeeds does not read it.
 */
const queues = () => import('#aws/queues.ts');

export const handler = anonymousRoute(contract, async ({ event, input }) => {
  const request = input.body();
  const now = new Date();
  const ip = sourceIpOf(event);
  const admission = await admitVerify(ip, now.getTime());
  if (!admission.admitted) {
    throw new ServiceError('rate_limited', 'Too many sign-in attempts; wait a minute', {
      headers: { 'retry-after': String(admission.retryAfterSeconds) },
    });
  }
  const fail = async (email: string, failure: SignInFailure) => {
    await (await queues()).enqueue('signIns', [
      {
        failure,
        email,
        ip,
        eventId: randomUUIDv7(),
        at: now.toISOString(),
      } satisfies SignInFailureJob,
    ]);
    return failed();
  };
  let email: string;
  if ('token' in request) {
    const use = await useSignInToken(request.token, now);
    // A token that names no link names no address either: nothing to record.
    if (use.outcome === 'unknown') throw failed();
    if (use.outcome !== 'signed_in') throw await fail(use.email, use.outcome);
    email = use.email;
  } else {
    const check = await useSignInCode(request.email, request.code, now);
    if (check !== 'signed_in') throw await fail(request.email, check);
    email = request.email;
  }
  const members = await membersOfAddress(email);
  const chosen =
    members.find((member) => member.teamId === request.teamId) ??
    members.toSorted((a, b) => (b.lastSignInAt ?? '').localeCompare(a.lastSignInAt ?? ''))[0];
  if (!chosen) throw failed();
  const started = await startSession(chosen, event, now);
  if (!started) throw failed();
  await recordSignIn(chosen.teamId, chosen.userId, now);
  await audit({
    teamId: chosen.teamId,
    actor: { kind: 'member', userId: chosen.userId, email, keyId: null },
    event,
    action: 'auth.signed_in',
    target: chosen.userId,
    details: { method: 'token' in request ? 'link' : 'code' },
  });
  return json(
    200,
    {
      user: toMemberView({ ...chosen, lastSignInAt: now.toISOString() }),
      teamId: chosen.teamId,
      teams: members.map((member) => ({ teamId: member.teamId, role: member.role })),
    },
    { 'set-cookie': started.setCookie },
  );
});
