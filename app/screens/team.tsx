import { call } from '../api.ts';
import { useQuery } from '../data.ts';
import { ScreenPending } from '../parts/feedback.tsx';
import { TeamApiKeys } from '../parts/team-api-keys.tsx';
import { TeamAudit } from '../parts/team-audit.tsx';
import { TeamMembers } from '../parts/team-members.tsx';
import { TeamNav } from '../parts/team-nav.tsx';
import { TeamSection } from '../parts/team-section.tsx';
import { TeamSessions } from '../parts/team-sessions.tsx';
import { UsageBar } from '../parts/usage-bar.tsx';
import { useSession } from '../session.ts';
import { teamSummary } from '../team-model.ts';
import { When } from '../time.tsx';

/**
 * The team: plan, members (with the invitations pending), forms and usage;
 * for owners the members, API keys and the audit trail in sentences;
 * everyone's own sessions by browser and system
 * (docs/dashboard.md#the-team-screen). Loaded when first opened.
 */
export function TeamScreen() {
  const session = useSession();
  const owner = session.role === 'owner';
  const selfId = session.user.userId;
  const shown = useQuery(session.team.teamId, (signal) => call('getTeam', { signal }));
  // Only owners may list members (docs/people.md#teams-members-keys-and-the-audit-trail).
  const members = useQuery(`members ${owner}`, (signal) =>
    owner ? call('listMembers', { signal }) : Promise.resolve({ members: [] }),
  );
  const team = shown.data;
  if (shown.error || !team) return <ScreenPending error={shown.error} retry={shown.reload} />;
  return (
    <main id="main" class="team">
      <h1>Team {team.name}</h1>
      <TeamNav current="team" />
      <p>{teamSummary(team, owner ? members.data?.members : undefined)}</p>
      {team.emailPausedAt && (
        <div class="warning" role="status">
          <p>
            The mail service has paused this team's emails since <When at={team.emailPausedAt} />:
            too many of them bounced or were marked as spam. Notifications and auto-replies wait and
            are sent once it is lifted; submissions are still stored.
          </p>
          <p>
            Whoever runs the service can see why and lift it (the steps are in the service's
            Delivery guide, under “One team cannot pause everyone's mail”). Check the suppressed
            addresses on the Privacy screen, and look for a form that is being abused.
          </p>
        </div>
      )}
      <UsageBar team={team} />
      {owner ? (
        <TeamMembers listed={members} selfId={selfId} />
      ) : (
        <TeamSection id="members-title" title="Members">
          <p class="hint">Only the team's owners see and manage its members and API keys.</p>
        </TeamSection>
      )}
      {owner && <TeamApiKeys />}
      <TeamSessions />
      {owner && <TeamAudit members={members.data?.members} selfId={selfId} />}
    </main>
  );
}
