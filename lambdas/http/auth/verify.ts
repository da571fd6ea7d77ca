import { ServiceError, unauthorized } from '#domain/errors.ts';
import { verifyInput } from '#domain/member-input.ts';
import { toMemberView } from '#domain/members.ts';
import { retryAfterSeconds, windowAt } from '#domain/rate-limit.ts';
import { VERIFIES_PER_IP_PER_MINUTE } from '#domain/sign-in-limits.ts';
import { audit } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { anonymousRoute } from '#http/management-route.ts';
import { sourceIpOf } from '#http/request.ts';
import { json } from '#http/respond.ts';
import { membersOfAddress, recordSignIn } from '#store/members.ts';
import { admitRequest, verifyIpScope } from '#store/request-counts.ts';
import { useSignInCode, useSignInToken } from '#store/sign-ins.ts';
import { startSession } from './session-cookie.ts';

const failed = () =>
  unauthorized(
    'The link or code is wrong, used, replaced by a newer one or expired; ask for a new one',
  );

/**
 * `POST /v1/auth/verify { token } | { email, code }`: uses the sign-in once
 * and starts a session (the cookie), in `teamId` when given and the address
 * is a member there, else in the team the member signed in to last. A wrong
 * code is recorded in the audit trail of each of the address's teams.
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

export const handler = anonymousRoute(contract, async ({ event, input }) => {
  const request = input.body();
  const now = new Date();
  const ip = sourceIpOf(event) ?? 'unknown';
  const window = windowAt(now.getTime(), 60);
  if (!(await admitRequest(verifyIpScope(ip), window, VERIFIES_PER_IP_PER_MINUTE))) {
    throw new ServiceError(429, 'rate_limited', 'Too many sign-in attempts; wait a minute', {
      headers: { 'retry-after': String(retryAfterSeconds(window, now.getTime())) },
    });
  }
  let email: string | undefined;
  if ('token' in request) {
    email = await useSignInToken(request.token, now);
  } else {
    const check = await useSignInCode(request.email, request.code, now);
    if (check === 'wrong') {
      for (const member of await membersOfAddress(request.email)) {
        await audit({
          teamId: member.teamId,
          actor: { kind: 'anonymous', userId: null, email: request.email, keyId: null },
          event,
          action: 'auth.code_failed',
          target: member.userId,
        });
      }
    }
    if (check === 'signed_in') email = request.email;
  }
  if (!email) throw failed();
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
