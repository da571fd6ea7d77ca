import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { failureWords as reason, useQuery } from '../data.ts';
import type { ApiKey, AuditEvent, Member } from '../model.ts';
import { Confirm } from '../parts/confirm.tsx';
import { CopyField } from '../parts/copy-field.tsx';
import { Loading, ScreenPending } from '../parts/feedback.tsx';
import { Alert, Listing } from '../parts/listing.tsx';
import { UsageBar } from '../parts/usage-bar.tsx';
import { useSession } from '../session.ts';
import { When } from '../time.tsx';

/**
 * The team: plan and usage, members (owners invite, change roles, remove),
 * API keys (created keys are shown once), this person's sessions, and the
 * audit trail.
 */
export function TeamScreen() {
  const session = useSession();
  const owner = session.role === 'owner';
  const [notice, setNotice] = useState('');
  const {
    data: team,
    error,
    reload: load,
  } = useQuery(session.team.teamId, (signal) => call('getTeam', { signal }));
  if (error || !team) return <ScreenPending error={error} retry={load} />;
  return (
    <main id="main" class="team">
      <h1>Team {team.name}</h1>
      <p>
        {team.plan === 'pro' ? 'Pro' : 'Free'} plan · {team.memberCount}{' '}
        {team.memberCount === 1 ? 'member' : 'members'} · {team.formCount}
        {team.formLimit === null ? '' : ` of ${team.formLimit}`} forms
      </p>
      <UsageBar team={team} />
      <p role="status" class="notice">
        {notice}
      </p>
      {owner ? (
        <Members owner={owner} selfId={session.user.userId} onNotice={setNotice} />
      ) : (
        <Section id="members-title" title="Members">
          <p class="hint">Only the team's owners see and manage its members and API keys.</p>
        </Section>
      )}
      {owner && <ApiKeys onNotice={setNotice} />}
      <Sessions onNotice={setNotice} />
      {owner && <Audit />}
    </main>
  );
}

function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

function Members(props: { owner: boolean; selfId: string; onNotice: (text: string) => void }) {
  const [problem, setProblem] = useState('');
  const [removing, setRemoving] = useState<Member>();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'owner'>('member');
  const listed = useQuery('members', (signal) => call('listMembers', { signal }));
  const members = listed.data?.members;
  const load = listed.reload;
  const act = async (action: () => Promise<unknown>, done: string) => {
    setProblem('');
    try {
      await action();
      props.onNotice(done);
      await load();
    } catch (failure) {
      setProblem(reason(failure));
    }
  };
  return (
    <Section id="members-title" title="Members">
      <Alert text={problem || (listed.error ? reason(listed.error) : '')} />
      {!members ? (
        <Loading label="Loading members…" />
      ) : (
        <Listing
          columns={[
            'Email',
            'Role',
            'Last sign-in',
            ...(props.owner ? [{ hidden: 'Actions' }] : []),
          ]}
        >
          {members.map((member) => (
            <tr key={member.userId}>
              <th scope="row">
                {member.email}
                {member.userId === props.selfId && ' (you)'}
              </th>
              <td>
                {props.owner ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    onChange={(event) => {
                      const next = event.currentTarget.value as Member['role'];
                      void act(
                        () =>
                          call('updateMember', {
                            params: { userId: member.userId },
                            body: { role: next },
                          }),
                        `${member.email} is now ${next === 'owner' ? 'an owner' : 'a member'}.`,
                      );
                    }}
                  >
                    <option value="member">Member</option>
                    <option value="owner">Owner</option>
                  </select>
                ) : member.role === 'owner' ? (
                  'Owner'
                ) : (
                  'Member'
                )}
              </td>
              <td>{member.lastSignInAt ? <When at={member.lastSignInAt} /> : 'never'}</td>
              {props.owner && (
                <td>
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Remove ${member.email}`}
                    onClick={() => setRemoving(member)}
                  >
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </Listing>
      )}
      {props.owner && (
        <form
          class="inline-form"
          aria-label="Invite a member"
          onSubmit={(event) => {
            event.preventDefault();
            void act(
              () => call('inviteMember', { body: { email, role } }),
              `Invited ${email}: a sign-in link is on its way.`,
            ).then(() => setEmail(''));
          }}
        >
          <label>
            Email of the person to invite
            <input
              type="email"
              required
              maxLength={254}
              value={email}
              onInput={(event) => setEmail(event.currentTarget.value)}
            />
          </label>
          <label>
            Role
            <select
              value={role}
              onChange={(event) => setRole(event.currentTarget.value as 'member' | 'owner')}
            >
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          </label>
          <button type="submit">Invite</button>
        </form>
      )}
      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          confirm="Remove"
          onCancel={() => setRemoving(undefined)}
          onConfirm={() => {
            const member = removing;
            setRemoving(undefined);
            void act(
              () => call('removeMember', { params: { userId: member.userId } }),
              `${member.email} was removed; their sessions and API keys are over.`,
            );
          }}
        >
          <p>
            They are signed out at once, the API keys they made stop working, and they lose access
            to the team's forms.
          </p>
        </Confirm>
      )}
    </Section>
  );
}

function ApiKeys(props: { onNotice: (text: string) => void }) {
  const [problem, setProblem] = useState('');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; apiKey: string }>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const listed = useQuery('keys', (signal) => call('listApiKeys', { signal }));
  const keys = listed.data?.apiKeys;
  const load = listed.reload;
  return (
    <Section id="keys-title" title="API keys">
      <Alert text={problem || (listed.error ? reason(listed.error) : '')} />
      {created && (
        <div class="created-key">
          <CopyField label={`New key ${created.name}`} value={created.apiKey} />
          <p class="warning">Copy it now: it is shown this once, only its hash is kept.</p>
        </div>
      )}
      {!keys ? (
        <Loading label="Loading keys…" />
      ) : (
        <Listing columns={['Name', 'Created', 'Last used', { hidden: 'Actions' }]}>
          {keys.map((key) => (
            <tr key={key.keyId}>
              <th scope="row">{key.name}</th>
              <td>
                <When at={key.createdAt} />
                {key.createdByEmail && ` by ${key.createdByEmail}`}
              </td>
              <td>{key.lastUsedOn ?? 'never'}</td>
              <td>
                {key.revokedAt ? (
                  'Revoked'
                ) : (
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Revoke ${key.name}`}
                    onClick={() => setRevoking(key)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Listing>
      )}
      <form
        class="inline-form"
        aria-label="Create an API key"
        onSubmit={async (event) => {
          event.preventDefault();
          setProblem('');
          try {
            const made = await call('createApiKey', { body: { name: name.trim() || 'default' } });
            setCreated({ name: made.name, apiKey: made.apiKey });
            setName('');
            props.onNotice(`Key ${made.name} created.`);
            await load();
          } catch (failure) {
            setProblem(reason(failure));
          }
        }}
      >
        <label>
          Name of the new key
          <input
            maxLength={100}
            value={name}
            placeholder="e.g. CRM sync"
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <button type="submit">Create a key</button>
      </form>
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.name}?`}
          confirm="Revoke"
          onCancel={() => setRevoking(undefined)}
          onConfirm={async () => {
            const key = revoking;
            setRevoking(undefined);
            try {
              await call('revokeApiKey', { params: { keyId: key.keyId } });
              props.onNotice(`Key ${key.name} revoked: it stops working at once.`);
              await load();
            } catch (failure) {
              setProblem(reason(failure));
            }
          }}
        >
          <p>Scripts using it are refused from now on.</p>
        </Confirm>
      )}
    </Section>
  );
}

function Sessions(props: { onNotice: (text: string) => void }) {
  const [problem, setProblem] = useState('');
  const listed = useQuery('sessions', (signal) => call('listSessions', { signal }));
  const sessions = listed.data?.sessions;
  const load = listed.reload;
  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <Section id="sessions-title" title="Your sessions">
      <Alert text={problem || (listed.error ? reason(listed.error) : '')} />
      {!sessions ? (
        <Loading label="Loading sessions…" />
      ) : (
        <ul class="sessions">
          {sessions.map((entry) => (
            <li key={entry.sessionId}>
              {entry.current ? 'This browser' : (entry.userAgent ?? 'Another browser')}
              {entry.ip && ` · ${entry.ip}`} · last seen <When at={entry.lastSeenAt} />
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        disabled={others === 0}
        onClick={async () => {
          try {
            await call('endOtherSessions');
            props.onNotice('Signed out everywhere else.');
            await load();
          } catch (failure) {
            setProblem(reason(failure));
          }
        }}
      >
        Sign out everywhere else
      </button>
    </Section>
  );
}

const ACTION_WORDS = (action: string) => action.replace(/[._]/g, ' ');

function Audit() {
  const [events, setEvents] = useState<AuditEvent[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
  const more = async (cursor?: string) => {
    try {
      const page = await call('listAuditEvents', { query: cursor ? { cursor } : {} });
      setEvents((shown) => [...(cursor ? (shown ?? []) : []), ...page.events]);
      setNext(page.next);
    } catch (failure) {
      setProblem(reason(failure));
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page is read once, on arrival
  useEffect(() => {
    void more();
  }, []);
  return (
    <Section id="audit-title" title="Audit trail">
      <Alert text={problem} />
      {!events ? (
        <Loading label="Loading the audit trail…" />
      ) : events.length === 0 ? (
        <p class="hint">Nothing yet.</p>
      ) : (
        <Listing columns={['When', 'What', 'Who']}>
          {events.map((event) => (
            <tr key={event.eventId}>
              <td>
                <When at={event.at} />
              </td>
              <td>
                {ACTION_WORDS(event.action)}
                {event.target && ` ${event.target}`}
              </td>
              <td>
                {event.actor.email ??
                  (event.actor.keyId ? `key ${event.actor.keyId}` : event.actor.kind)}
              </td>
            </tr>
          ))}
        </Listing>
      )}
      {next && (
        <button type="button" class="quiet" onClick={() => void more(next)}>
          Older events
        </button>
      )}
    </Section>
  );
}
