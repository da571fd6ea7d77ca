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

/** What became of the email at one address it was sent to. */
export interface RecipientOutcome {
  email: string;
  status: 'sent' | Exclude<EmailFate, 'sent'>;
  at: string;
  bounceType: BounceType | null;
}

export interface EmailOutcome {
  status: EmailStatus;
  at: string;
  bounceType: BounceType | null;
  /** Every address it was sent to, its To first; empty when none is known (not sent, or an old mark). */
  recipients: RecipientOutcome[];
}

/** One recipient's fate as the mark keeps it (store/deliveries.ts recordEmailFate). */
export interface RecipientFate {
  fate: EmailFate;
  at: string;
  bounceType?: BounceType;
}

/** An email's mark as stored (store/deliveries.ts), the fields read here. */
export interface EmailMark {
  claimedAt?: string;
  sentAt?: string;
  /** The addresses it went to, To first (marks sent before recipients had fates have none). */
  sentTo?: string[];
  /** Each recipient's fate by its lower-cased address. */
  recipientFates?: Record<string, RecipientFate>;
  refusedAt?: string;
  refusedBy?: 'ses' | 'limit' | 'suppressed';
  /** The whole email's fate, on marks claimed before recipients had fates of their own. */
  fate?: EmailFate;
  fateAt?: string;
  bounceType?: BounceType;
}

const REFUSALS = { ses: 'refused', limit: 'limited', suppressed: 'suppressed' } as const;

/**
 * The outcome of a mark; null when the submission has no such email (none was due).
 * Its status is its To's: a Cc that bounced does not make the email bounced, it is
 * in `recipients` (docs/delivery.md#what-became-of-an-email).
 */
export function emailOutcome(mark: EmailMark | undefined): EmailOutcome | null {
  if (!mark) return null;
  if (mark.refusedAt) {
    return {
      status: REFUSALS[mark.refusedBy ?? 'ses'],
      at: mark.refusedAt,
      bounceType: null,
      recipients: [],
    };
  }
  const claimed = mark.claimedAt ?? new Date(0).toISOString();
  const [to, ...cc] = mark.sentAt && mark.recipientFates ? (mark.sentTo ?? []) : [];
  if (mark.sentAt && to !== undefined) {
    const recipients = [to, ...cc].map((email) =>
      recipientOutcome(email, mark.recipientFates?.[email.trim().toLowerCase()], mark.sentAt!),
    );
    const { status, at, bounceType } = recipients[0]!;
    return { status, at, bounceType, recipients };
  }
  const bounceType = mark.fate === 'bounced' ? (mark.bounceType ?? 'Undetermined') : null;
  if (mark.fate) {
    return {
      status: mark.fate,
      at: mark.fateAt ?? mark.sentAt ?? claimed,
      bounceType,
      recipients: [],
    };
  }
  if (mark.sentAt) return { status: 'sent', at: mark.sentAt, bounceType: null, recipients: [] };
  return { status: 'sending', at: claimed, bounceType: null, recipients: [] };
}

/** A recipient with no event yet reads `sent`, as of the send. */
function recipientOutcome(
  email: string,
  fate: RecipientFate | undefined,
  sentAt: string,
): RecipientOutcome {
  if (!fate) return { email, status: 'sent', at: sentAt, bounceType: null };
  return {
    email,
    status: fate.fate,
    at: fate.at,
    bounceType: fate.fate === 'bounced' ? (fate.bounceType ?? 'Undetermined') : null,
  };
}
