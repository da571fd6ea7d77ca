import { call } from '../api.ts';
import type { Action } from '../data.ts';
import type { Member } from '../model.ts';
import { isPending, memberWords, roleWords } from '../team-model.ts';
import { When } from '../time.tsx';
import { Breakable } from './listing.tsx';

/**
 * One member as an owner sees them: their role to change, when they last
 * signed in (or that the invitation waits, with a button to send it again),
 * and Remove. The team's only owner gets neither a role to change nor
 * Remove: the team keeps an owner (docs/people.md#people-and-sign-in).
 */
export function TeamMemberRow(props: {
  member: Member;
  self: boolean;
  soleOwner: boolean;
  action: Action;
  onChanged: () => Promise<void>;
  onRemove: (member: Member) => void;
}) {
  const { member, action } = props;
  const run = async (work: () => Promise<unknown>, done: string) => {
    if ((await action.run(work, done)) !== undefined) await props.onChanged();
  };
  return (
    <tr>
      <th scope="row">
        <Breakable text={memberWords(member)} />
        {props.self && ' (you)'}
      </th>
      <td>
        {props.soleOwner ? (
          'Owner, the only one'
        ) : (
          <select
            aria-label={`Role of ${member.email}`}
            value={member.role}
            onChange={(event) => {
              const role = event.currentTarget.value as Member['role'];
              void run(
                () => call('updateMember', { params: { userId: member.userId }, body: { role } }),
                `${member.email} is now ${role === 'owner' ? 'an owner' : 'a member'}.`,
              );
            }}
          >
            <option value="member">{roleWords('member')}</option>
            <option value="owner">{roleWords('owner')}</option>
          </select>
        )}
      </td>
      <td>
        {isPending(member) ? (
          'Invited, not signed in yet'
        ) : member.lastSignInAt ? (
          <When at={member.lastSignInAt} />
        ) : null}
      </td>
      <td class="actions">
        {isPending(member) && (
          <button
            type="button"
            class="quiet"
            aria-label={`Resend the invitation to ${member.email}`}
            disabled={action.busy}
            onClick={() =>
              void run(
                () => call('resendInvitation', { params: { userId: member.userId } }),
                `A new invitation is on its way to ${member.email}.`,
              )
            }
          >
            {/* "Resend" alone on a phone, so the members' table fits its width. */}
            Resend<span class="wide-only"> the invitation</span>
          </button>
        )}
        {!props.soleOwner && (
          <button
            type="button"
            class="quiet"
            aria-label={`Remove ${member.email}`}
            onClick={() => props.onRemove(member)}
          >
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}
