import { call } from '../api.ts';
import { failureWords, useAction, useQuery } from '../data.ts';
import { deviceWords } from '../device-words.ts';
import { When } from '../time.tsx';
import { Loading, Outcome } from './feedback.tsx';
import { Alert } from './listing.tsx';
import { TeamSection } from './team-section.tsx';

/**
 * The signed-in person's own sessions, each named by its browser and
 * system ("Firefox on Windows"), this one as "This device"; sign out
 * everywhere else.
 */
export function TeamSessions() {
  const action = useAction();
  const listed = useQuery('sessions', (signal) => call('listSessions', { signal }));
  const sessions = listed.data?.sessions;
  const others = sessions?.filter((session) => !session.current).length ?? 0;
  return (
    <TeamSection id="sessions-title" title="Your sessions">
      <Outcome action={action} />
      <Alert text={listed.error ? failureWords(listed.error) : ''} />
      {!sessions ? (
        <Loading label="Loading sessions…" />
      ) : (
        <ul class="sessions">
          {sessions.map((session) => (
            <li key={session.sessionId}>
              <strong>{session.current ? 'This device' : deviceWords(session.userAgent)}</strong>
              {session.current && `: ${deviceWords(session.userAgent)}`}
              {session.ip && ` · from ${session.ip}`} · last seen <When at={session.lastSeenAt} />
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        disabled={others === 0 || action.busy}
        onClick={async () => {
          const ended = await action.run(
            () => call('endOtherSessions'),
            ({ count }) =>
              count === 1
                ? 'Signed out of 1 other session.'
                : `Signed out of ${count} other sessions.`,
          );
          if (ended) await listed.reload();
        }}
      >
        Sign out everywhere else
      </button>
    </TeamSection>
  );
}
