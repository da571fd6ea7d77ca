import { notFound } from '#domain/errors.ts';
import { switchTeamInput } from '#domain/member-input.ts';
import { toMemberView } from '#domain/members.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { membersOfAddress } from '#store/members.ts';
import { deleteSession } from '#store/sessions.ts';
import { sessionOf } from './require-session.ts';
import { startSession } from './session-cookie.ts';

/**
 * `POST /v1/auth/session/team { teamId }`: moves the signed-in person to
 * another team of theirs: a new session there, this one ended. 404 for a
 * team the address is not a member of.
 */
export const contract = defineContract({
  tag: 'Sign-in',
  body: switchTeamInput,
  answers: [
    {
      status: 200,
      description: 'A new session in the other team.',
      body: 'SwitchedTeam',
      headers: {
        'set-cookie': 'The session cookie (`fs_session`, HttpOnly, Secure, SameSite=Lax).',
      },
    },
  ],
  errors: ['no_session'],
});

export const handler = managementRoute(contract, async ({ caller, input, event }) => {
  const { teamId } = input.body();
  const { sessionId, email } = sessionOf(caller);
  const member = (await membersOfAddress(email)).find((m) => m.teamId === teamId);
  if (!member) throw notFound('Team');
  const started = await startSession(member, event, new Date());
  if (!started) throw notFound('Team');
  await deleteSession({ teamId: caller.team.teamId, userId: caller.userId, sessionId });
  return json(200, { user: toMemberView(member), teamId }, { 'set-cookie': started.setCookie });
});
