import type { Confirmation, Submission } from './model.ts';

/**
 * Confirm by email in the dashboard's words (docs/dashboard.md#confirm-by-email):
 * whether a submission waits for its visitor's click, how long it has
 * waited, and what its page says of its state. Pure.
 */

/** Whether it waits for its visitor's confirmation: only Delete applies to it. */
export const isPending = (submission: Pick<Submission, 'confirmation'>) =>
  submission.confirmation?.status === 'pending';

const UNITS: [Intl.NumberFormatOptions['unit'] & string, number][] = [
  ['minute', 60],
  ['hour', 24],
  ['day', Number.POSITIVE_INFINITY],
];

/**
 * A span from `from` to `now` as a person says it, in the browser's
 * language: "less than a minute", "1 minute", "5 hours", "2 days"
 * (whole units, rounded down: "1 hour" until the second hour is full);
 * `short` for a row's narrow room: "under 1 min", "3 min", "5 hr".
 */
export function waitedWords(from: string, now = Date.now(), display: 'long' | 'short' = 'long') {
  let amount = Math.max(0, (now - Date.parse(from)) / 60_000);
  if (amount < 1) return display === 'long' ? 'less than a minute' : 'under 1 min';
  for (const [unit, size] of UNITS) {
    if (amount < size) {
      return new Intl.NumberFormat(undefined, {
        style: 'unit',
        unit,
        unitDisplay: display,
      }).format(Math.floor(amount));
    }
    amount /= size;
  }
  return '';
}

/** What the submission page says of its confirmation: nothing for a form that asked none. */
export type ConfirmationState =
  | { state: 'pending'; lead: string; since: string; waited: string }
  | { state: 'confirmed'; lead: string; at: string };

export function confirmationState(
  confirmation: Confirmation | null | undefined,
  now = Date.now(),
): ConfirmationState | undefined {
  if (!confirmation) return undefined;
  if (confirmation.status === 'pending') {
    return {
      state: 'pending',
      lead: 'Waiting for confirmation since',
      since: confirmation.requestedAt,
      waited: waitedWords(confirmation.requestedAt, now),
    };
  }
  // A confirmed one always has its click's time; the request's stands in should it lack one.
  return {
    state: 'confirmed',
    lead: 'Confirmed at',
    at: confirmation.confirmedAt ?? confirmation.requestedAt,
  };
}
