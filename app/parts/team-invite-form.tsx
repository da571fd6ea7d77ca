import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import type { Action } from '../data.ts';
import type { Member } from '../model.ts';

/** Owners invite by address and role; the invitee gets an invitation, its link valid 7 days (docs/people.md#invitations). */
export function TeamInviteForm(props: { action: Action; onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Member['role']>('member');
  return (
    <form
      class="inline-form"
      aria-label="Invite a member"
      onSubmit={async (event) => {
        event.preventDefault();
        const invited = await props.action.run(
          () => call('inviteMember', { body: { email, role } }),
          (member) =>
            `Invited ${member.email}: an invitation is on its way (its link works for 7 days).`,
        );
        if (!invited) return;
        setEmail('');
        await props.onInvited();
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
          onChange={(event) => setRole(event.currentTarget.value as Member['role'])}
        >
          <option value="member">Member</option>
          <option value="owner">Owner</option>
        </select>
      </label>
      <button type="submit" disabled={props.action.busy}>
        Invite
      </button>
    </form>
  );
}
