import { ServiceError } from './errors.ts';

/**
 * The people of a team. A member is one email address in one team: the same
 * address may belong to several teams, each membership with its own
 * `userId` (an existing team's `ownerUserId` is its owner's). Owners manage
 * members and API keys; members use forms and submissions.
 */
export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface Member {
  userId: string;
  teamId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
  lastSignInAt: string | null;
}

/** RFC 5321's limit on a path; any longer address cannot be delivered. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * One spelling per sign-in address: trimmed and lower-cased. Mail systems
 * treat the local part as case-insensitive in practice, and two members of
 * one team must never differ only in case. (`+tags` and dots are kept: they
 * may be separate mailboxes, and a person signs in with the one invited.)
 */
export function memberEmail(value: string): string {
  return value.trim().toLowerCase();
}

export const lastOwner = () =>
  new ServiceError(
    'last_owner',
    'A team keeps at least one owner: make another member owner first',
  );

export const ownerOnly = () =>
  new ServiceError('owner_only', 'Only an owner of the team may do this');

export const invitationAccepted = () =>
  new ServiceError(
    'invitation_accepted',
    'This member has signed in already: there is no invitation to send again',
  );

export const alreadyMember = () =>
  new ServiceError('already_member', 'This address is already a member of the team');

/** What the API shows of a member. */
export function toMemberView(member: Member) {
  const { userId, email, name, role, createdAt, lastSignInAt } = member;
  return { userId, email, name, role, createdAt, lastSignInAt };
}
