import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useAction, useQuery } from '../data.ts';
import { IP_STORAGE_CHOICES, IP_STORAGE_WORDS, type IpStorage } from '../privacy-model.ts';
import { useSession } from '../session.ts';
import { Loading, Outcome, Problem } from './feedback.tsx';
import { TeamSection } from './team-section.tsx';

/**
 * The team's `ipStorage` (PATCH /v1/team, owners): what new submissions keep
 * of the sender's internet address, each choice with what it means
 * (docs/people.md#visitor-addresses).
 */
export function TeamIpStorage() {
  const session = useSession();
  const team = useQuery(`team ${session.team.teamId}`, (signal) => call('getTeam', { signal }));
  const action = useAction();
  const [chosen, setChosen] = useState<IpStorage>();
  const saved = team.data?.ipStorage;
  const shown = chosen ?? saved;
  return (
    <TeamSection id="ip-storage-title" title="Senders' internet addresses">
      {!saved ? (
        team.error ? (
          <Problem error={team.error} retry={team.reload} />
        ) : (
          <Loading />
        )
      ) : (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            if (!shown) return;
            const answer = await action.run(
              () => call('updateTeam', { body: { ipStorage: shown } }),
              (now) =>
                `Saved: from the next submission, ${IP_STORAGE_WORDS[now.ipStorage].label.toLowerCase()} is kept.`,
            );
            if (answer) {
              team.setData(answer);
              setChosen(undefined);
            }
          }}
        >
          <fieldset class="choices">
            <legend>What new submissions keep of the sender's internet address</legend>
            {IP_STORAGE_CHOICES.map((value) => (
              <div class="choice" key={value}>
                <input
                  type="radio"
                  id={`ip-storage-${value}`}
                  name="ip-storage"
                  value={value}
                  checked={shown === value}
                  aria-describedby={`ip-storage-${value}-says`}
                  onChange={() => setChosen(value)}
                />
                <label for={`ip-storage-${value}`}>{IP_STORAGE_WORDS[value].label}</label>
                <p class="hint" id={`ip-storage-${value}-says`}>
                  {IP_STORAGE_WORDS[value].says}
                </p>
              </div>
            ))}
          </fieldset>
          <p class="hint">
            Either way, blocked addresses and the limits on how often one sender may post work as
            before. A change applies to submissions received from then on: earlier ones keep what
            they hold. A form set not to keep addresses keeps neither.
          </p>
          <button type="submit" disabled={action.busy || shown === saved}>
            Save
          </button>
          <Outcome action={action} />
        </form>
      )}
    </TeamSection>
  );
}
