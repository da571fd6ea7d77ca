/** One message of the sign-ins queue: someone asked for a sign-in email at this address. */
export interface SignInJob {
  email: string;
  requestedAt: string;
  /** Why: a person asked (`sign_in`), or an owner invited them (`invite`). */
  reason: 'sign_in' | 'invite';
}
