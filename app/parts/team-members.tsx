import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { failureWords, type Query, useAction } from '../data.ts';
import type { Member } from '../model.ts';
import { isSoleOwner, memberWords } from '../team-model.ts';
import { Confirm } from './confirm.tsx';
import { Loading, Outcome } from './feedback.tsx';
import { Alert, Listing } from './listing.tsx';
import { TeamInviteForm } from './team-invite-form.tsx';
import { TeamMemberRow } from './team-member-row.tsx';
import { TeamSection } from './team-section.tsx';

/** The members, for owners: invite, send an invitation again, change roles, remove. */
export function TeamMembers(props: { listed: Query<{ members: Member[] }>; selfId: string }) {
  const action = useAction();
  const [removing, setRemoving] = useState<Member>();
  const { listed } = props;
  const members = listed.data?.members;
  const soleOwner = members?.find((member) => isSoleOwner(member, members));
  return (
    <TeamSection id="members-title" title="Members">
      <Outcome action={action} />
      <Alert text={listed.error ? failureWords(listed.error) : ''} />
      {!members ? (
        <Loading label="Loading members…" />
      ) : (
        <Listing columns={['Member', 'Role', 'Last sign-in', { hidden: 'Actions' }]}>
          {members.map((member) => (
            <TeamMemberRow
              key={member.userId}
              member={member}
              self={member.userId === props.selfId}
              soleOwner={member === soleOwner}
              action={action}
              onChanged={listed.reload}
              onRemove={setRemoving}
            />
          ))}
        </Listing>
      )}
      {soleOwner && (
        <p class="hint">
          {soleOwner.userId === props.selfId ? 'You are' : `${memberWords(soleOwner)} is`} the
          team's only owner: make another member an owner before stepping down or leaving.
        </p>
      )}
      <TeamInviteForm action={action} onInvited={listed.reload} />
      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          confirm="Remove"
          onCancel={() => setRemoving(undefined)}
          onConfirm={async () => {
            const member = removing;
            setRemoving(undefined);
            const done = await action.run(
              () => call('removeMember', { params: { userId: member.userId } }),
              `${member.email} was removed; their sessions and API keys are over.`,
            );
            if (done) await listed.reload();
          }}
        >
          <p>
            They are signed out at once, the API keys they made stop working, and they lose access
            to the team's forms.
          </p>
        </Confirm>
      )}
    </TeamSection>
  );
}
