import { toSessionView } from '#domain/sessions.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listSessions } from '#store/sessions.ts';
import { sessionOf } from './require-session.ts';

/** `GET /v1/auth/sessions`: the signed-in member's own sessions, this one marked `current`. */
export const contract = defineContract({
  tag: 'Sign-in',
  answers: [
    { status: 200, description: 'The member’s sessions, newest first.', body: 'SessionList' },
  ],
  errors: ['no_session'],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  const { sessionId } = sessionOf(caller);
  const sessions = await listSessions(caller.team.teamId, caller.userId, new Date());
  return json(200, { sessions: sessions.map((session) => toSessionView(session, sessionId)) });
});
