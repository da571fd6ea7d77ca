import { issueApiKey } from '#domain/api-keys.ts';
import { putApiKey } from '#store/api-key-listings.ts';
import { createTeam } from '#store/new-teams.ts';
import { getTeam, type Plan, type Team } from '#store/teams.ts';

/**
 * Operator actions on teams and keys, shared by the admin CLI and the local
 * runner's development accounts. The table must be configured (TABLE_NAME and
 * credentials) before this module is imported.
 */
export async function createTeamWithKey(input: {
  name: string;
  ownerEmail: string;
  plan: Plan;
}): Promise<{ team: Team; keyId: string; apiKey: string }> {
  const team = await createTeam(input);
  const { keyId, apiKey } = await createKeyFor(team, 'default');
  return { team, keyId, apiKey };
}

export async function createKey(
  teamId: string,
  name = 'default',
): Promise<{ keyId: string; apiKey: string } | undefined> {
  const team = await getTeam(teamId);
  if (!team) return undefined;
  return createKeyFor(team, name);
}

async function createKeyFor(team: Team, name: string): Promise<{ keyId: string; apiKey: string }> {
  const issued = issueApiKey();
  await putApiKey({
    keyId: issued.keyId,
    hash: issued.hash,
    teamId: team.teamId,
    userId: team.ownerUserId,
    createdByEmail: team.ownerEmail,
    name,
    // The operator's key acts as an owner whoever the members are (docs/people.md#teams-members-keys-and-the-audit-trail).
    operator: true,
  });
  return { keyId: issued.keyId, apiKey: issued.apiKey };
}
