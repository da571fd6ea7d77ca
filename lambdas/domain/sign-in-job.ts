import type { Inviter } from './invitation.ts';

/** A message of the sign-ins queue: someone asked for a sign-in email at this address. */
export interface SignInJob {
  email: string;
  requestedAt: string;
  /** Why: a person asked (`sign_in`), or an owner invited them (`invite`). */
  reason: 'sign_in' | 'invite';
  /**
   * With `invite`: the team and who invited, for the invitation's own email
   * (docs/people.md#invitations). Absent on invitations queued before it:
   * those get a sign-in email, as they always did.
   */
  invitation?: { teamId: string; inviter: Inviter };
}

/**
 * A message of the sign-ins queue: a verification failed for this address,
 * to be recorded in the audit trail of each of its teams (none when it is
 * nobody's). The verify route queues one for every failure, member or not,
 * so that its answer takes the same work whoever the address belongs to
 * (docs/people.md#sign-in-bounds). Never a code or a token.
 */
export interface SignInFailureJob {
  failure: SignInFailure;
  email: string;
  /** The requester's address, for the audit event. */
  ip: string | null;
  /** The audit event's id (UUID v7, made when the verify failed, so the trail keeps its order). */
  eventId: string;
  at: string;
}

export type SignInFailure =
  /** A wrong code, or no code pending. */
  | 'wrong_code'
  /** A code tried past the address's hourly tries. */
  | 'too_many_codes'
  /** A link that had ended. */
  | 'link_expired'
  /** A link used before. */
  | 'link_used';

export type SignInQueueMessage = SignInJob | SignInFailureJob;

export function isFailureJob(message: SignInQueueMessage): message is SignInFailureJob {
  return 'failure' in message;
}
