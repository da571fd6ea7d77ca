import { toSessionView } from '#domain/sessions.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listSessions } from '#store/sessions.ts';
import { sessionOf } from './require-session.ts';

/** `GET /v1/auth/sessions`: the signed-in member's own sessions, this one marked `current`. */
export const handler = managementRoute(async ({ caller }) => {
  const { sessionId } = sessionOf(caller);
  const sessions = await listSessions(caller.team.teamId, caller.userId, new Date());
  return json(200, { sessions: sessions.map((session) => toSessionView(session, sessionId)) });
});
