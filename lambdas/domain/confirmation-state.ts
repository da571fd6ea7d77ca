/**
 * The states of a submission of a form that asks for confirmation by email
 * (docs/submit.md#confirm-by-email): `pending` until the visitor's click,
 * then `confirmed`. A module of its own, without the token's crypto: the
 * folders, the summary and the dashboard read these.
 */

/** A submission's confirmation, as stored and as the API shows it. */
export interface Confirmation {
  status: 'pending' | 'confirmed';
  requestedAt: string;
  confirmedAt: string | null;
}

/** Whether a submission waits for its visitor's confirmation. */
export function isPending(submission: { confirmation?: Confirmation | null }): boolean {
  return submission.confirmation?.status === 'pending';
}

/** The confirmation a clean post to a form with `confirmEmail` is stored with. */
export function pendingConfirmation(now: Date): Confirmation {
  return { status: 'pending', requestedAt: now.toISOString(), confirmedAt: null };
}

/** The same confirmation once the visitor confirmed at `now`. */
export function confirmedAt(confirmation: Confirmation, now: Date): Confirmation {
  return { ...confirmation, status: 'confirmed', confirmedAt: now.toISOString() };
}
