import { call } from '../api.ts';
import { paths } from '../paths.ts';
import { useSession } from '../session.ts';
import { Link } from './link.tsx';

/** The bar on every signed-in screen: home, the team (and a switch to another), sign out. */
export function Header(props: { onSignedOut: () => void; onSwitched: () => void }) {
  const session = useSession();
  const signOut = async () => {
    await call('signOut').catch(() => undefined);
    props.onSignedOut();
  };
  const switchTo = async (teamId: string) => {
    await call('switchTeam', { body: { teamId } });
    props.onSwitched();
  };
  return (
    <header class="bar">
      <nav aria-label="Main">
        <Link to={paths.forms()} class="home">
          Forms
        </Link>
        <Link to={paths.team()}>Team</Link>
      </nav>
      <div class="who">
        {session.teams.length > 1 ? (
          <label>
            <span class="visually-hidden">Team</span>
            <select
              aria-label="Team"
              value={session.team.teamId}
              onChange={(event) => void switchTo(event.currentTarget.value)}
            >
              {session.teams.map((team) => (
                <option value={team.teamId} key={team.teamId}>
                  {team.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="team">{session.team.name}</span>
        )}
        <span class="email">{session.user.email}</span>
        <button type="button" class="quiet" onClick={signOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
