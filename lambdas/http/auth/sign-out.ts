import { config } from '#config';
import { sessionCookieHeader } from '#domain/sessions.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { deleteSession } from '#store/sessions.ts';
import { sessionOf } from './require-session.ts';

/** `POST /v1/auth/sign-out`: ends this session at once and clears its cookie. */
export const contract = defineContract({
  tag: 'Sign-in',
  answers: [
    {
      status: 200,
      description: 'Signed out.',
      body: 'Ok',
      headers: { 'set-cookie': 'Clears the session cookie.' },
    },
  ],
  errors: ['no_session'],
});

export const handler = managementRoute(contract, async ({ caller, event }) => {
  const { sessionId } = sessionOf(caller);
  await deleteSession({ teamId: caller.team.teamId, userId: caller.userId, sessionId });
  await auditByCaller(caller, event, 'auth.signed_out', caller.userId);
  return json(200, { ok: true }, { 'set-cookie': sessionCookieHeader(null, config.baseUrl) });
});
