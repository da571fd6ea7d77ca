import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type AuditNames, auditSentence } from '../audit-words.ts';
import { failureWords, useAction, useQuery } from '../data.ts';
import type { AuditEvent, Member } from '../model.ts';
import { When } from '../time.tsx';
import { Loading, Outcome } from './feedback.tsx';
import { Alert, Breakable, Listing } from './listing.tsx';
import { MoreButton } from './more-button.tsx';
import { TeamSection } from './team-section.tsx';

/**
 * The audit trail, for owners, newest first: one sentence an event ("Ana
 * Lopez rotated the form key of Contact"), named from the team's members,
 * forms and keys (app/audit-words.ts), then older pages on demand.
 */
export function TeamAudit(props: { members: readonly Member[] | undefined; selfId: string }) {
  const action = useAction();
  const [older, setOlder] = useState<{ events: AuditEvent[]; next: string | null }>();
  const first = useQuery('audit', async (signal) => {
    const [page, forms, keys] = await Promise.all([
      call('listAuditEvents', { query: {}, signal }),
      call('listForms', { signal }),
      call('listApiKeys', { signal }),
    ]);
    return {
      page,
      forms: new Map(forms.forms.map((form) => [form.id, form.name])),
      keys: new Map(keys.apiKeys.map((key) => [key.keyId, key.name])),
    };
  });
  const loaded = first.data;
  const names: AuditNames | undefined = loaded && {
    selfId: props.selfId,
    members: new Map((props.members ?? []).map((member) => [member.userId, member])),
    forms: loaded.forms,
    keys: loaded.keys,
  };
  const events = loaded && [...loaded.page.events, ...(older?.events ?? [])];
  const next = older ? older.next : loaded?.page.next;
  return (
    <TeamSection id="audit-title" title="Audit trail">
      <Outcome action={action} />
      <Alert text={first.error ? failureWords(first.error) : ''} />
      {!events || !names ? (
        <Loading label="Loading the audit trail…" />
      ) : events.length === 0 ? (
        <p class="hint">Nothing yet.</p>
      ) : (
        <Listing columns={['When', 'What happened', 'From']}>
          {events.map((event) => (
            <tr key={event.eventId}>
              <td>
                <When at={event.at} />
              </td>
              <td>
                <Breakable text={auditSentence(event, names)} />
              </td>
              <td>
                <Breakable text={event.ip ?? ''} />
              </td>
            </tr>
          ))}
        </Listing>
      )}
      {next && (
        <MoreButton
          label="Older events"
          next={next}
          action={action}
          load={(cursor) => call('listAuditEvents', { query: { cursor } })}
          onPage={(page) =>
            setOlder((shown) => ({
              events: [...(shown?.events ?? []), ...page.events],
              next: page.next,
            }))
          }
        />
      )}
    </TeamSection>
  );
}
