import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { deleteSessionsOf } from '#store/sessions.ts';
import { sessionOf } from './require-session.ts';

/** `DELETE /v1/auth/sessions`: signs the member out everywhere but here; `{ count }` ended. */
export const contract = defineContract({
  tag: 'Sign-in',
  answers: [{ status: 200, description: 'Sessions ended.', body: 'Count' }],
  errors: ['no_session'],
});

export const handler = managementRoute(contract, async ({ caller, event }) => {
  const { sessionId } = sessionOf(caller);
  const count = await deleteSessionsOf(caller.team.teamId, caller.userId, sessionId);
  await auditByCaller(caller, event, 'auth.sessions_ended', caller.userId, { count });
  return json(200, { count });
});
