import type { BounceType, EmailFate } from './email-events.ts';

/**
 * What became of one email of a submission, as the API says it
 * (docs/delivery.md#what-became-of-an-email): `sending` (claimed, not yet
 * accepted by SES), `sent` (accepted), then SES's word on it (`delayed`,
 * `delivered`, `bounced`, `complained`, `rejected`); or why it was not sent:
 * `refused` (SES refused it at once), `limited` (the auto-reply limits),
 * `suppressed` (its address is on the team's suppression list).
 */
export type EmailStatus =
  | 'sending'
  | 'sent'
  | Exclude<EmailFate, 'sent'>
  | 'refused'
  | 'limited'
  | 'suppressed';

export const EMAIL_STATUSES = [
  'sending',
  'sent',
  'delayed',
  'delivered',
  'rejected',
  'bounced',
  'complained',
  'refused',
  'limited',
  'suppressed',
] as const satisfies readonly EmailStatus[];

export interface EmailOutcome {
  status: EmailStatus;
  at: string;
  bounceType: BounceType | null;
}

/** An email's mark as stored (store/deliveries.ts), the fields read here. */
export interface EmailMark {
  claimedAt?: string;
  sentAt?: string;
  refusedAt?: string;
  refusedBy?: 'ses' | 'limit' | 'suppressed';
  fate?: EmailFate;
  fateAt?: string;
  bounceType?: BounceType;
}

const REFUSALS = { ses: 'refused', limit: 'limited', suppressed: 'suppressed' } as const;

/** The outcome of a mark; null when the submission has no such email (none was due). */
export function emailOutcome(mark: EmailMark | undefined): EmailOutcome | null {
  if (!mark) return null;
  const bounceType = mark.fate === 'bounced' ? (mark.bounceType ?? 'Undetermined') : null;
  if (mark.refusedAt) {
    return { status: REFUSALS[mark.refusedBy ?? 'ses'], at: mark.refusedAt, bounceType: null };
  }
  const claimed = mark.claimedAt ?? new Date(0).toISOString();
  if (mark.fate)
    return { status: mark.fate, at: mark.fateAt ?? mark.sentAt ?? claimed, bounceType };
  if (mark.sentAt) return { status: 'sent', at: mark.sentAt, bounceType: null };
  return { status: 'sending', at: claimed, bounceType: null };
}
