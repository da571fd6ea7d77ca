import { mailboxOf } from './mailbox.ts';

/**
 * What SES tells of an email after it took it (docs/delivery.md#what-became-of-an-email):
 * its configuration set publishes one event per step, as EventBridge
 * events (`detail` is SES's event record), each carrying the tags the
 * email was sent with. This module reads them; it trusts nothing in them
 * beyond their shape (strings bounded, unknown types ignored).
 */

/** An email's fate, strongest last: a later event never replaces a stronger one. */
export const EMAIL_FATES = [
  'sent',
  'delayed',
  'delivered',
  'rejected',
  'bounced',
  'complained',
] as const;
export type EmailFate = (typeof EMAIL_FATES)[number];

/**
 * A fate's strength: the list's order, except that a transient bounce (a full
 * mailbox, an out-of-office answer after delivery) ranks just below
 * `delivered`, so a delivery is not hidden by it and a later permanent
 * bounce still replaces it.
 */
export const fateRank = (fate: EmailFate, bounceType?: BounceType): number =>
  fate === 'bounced' && bounceType === 'Transient'
    ? EMAIL_FATES.indexOf('delivered') + 0.5
    : EMAIL_FATES.indexOf(fate) + 1;

export type BounceType = 'Permanent' | 'Transient' | 'Undetermined';

/** The tags every email is sent with, so its events find its record. */
export interface EmailTags {
  formId: string;
  submissionId: string;
  kind: 'notification' | 'autoreply' | 'malware' | 'confirm';
  teamId: string;
}

export interface EmailEvent {
  fate: EmailFate;
  at: string;
  messageId: string;
  tags: EmailTags;
  /**
   * The recipients the event is about, as SES's record format names them: a Send's or a
   * Reject's every destination, a Delivery's delivered ones, a bounce's bounced ones, a
   * complaint's complainers, a delay's delayed ones.
   */
  recipients: string[];
  bounceType?: BounceType;
  bounceSubType?: string;
}

const FATE_OF_TYPE: Record<string, EmailFate> = {
  Send: 'sent',
  Delivery: 'delivered',
  Bounce: 'bounced',
  Complaint: 'complained',
  Reject: 'rejected',
  DeliveryDelay: 'delayed',
};

/** SES tags as sent: name and value, letters, digits, `_` and `-` only (SES's rule). */
export function sesTags(tags: EmailTags): { Name: string; Value: string }[] {
  return Object.entries(tags).map(([Name, Value]) => ({ Name, Value: tagValue(Value) }));
}

const tagValue = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256);

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const text = (value: unknown, max = 320): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
/** SES tags arrive as `{ name: [value] }`. */
const firstTag = (tags: Json, name: string) =>
  Array.isArray(tags[name]) ? text((tags[name] as unknown[])[0], 256) : undefined;

/** An address as an event gives it, trimmed; undefined when blank (it keys a map: never empty). */
const address = (value: unknown): string | undefined => text(value)?.trim() || undefined;

/** A list of addresses (`mail.destination`, `delivery.recipients`), bounded. */
function addresses(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, 50)
    .map(address)
    .filter((each): each is string => each !== undefined);
}

function recipientsOf(list: unknown, field: string): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, 50)
    .map((entry) => address(object(entry)?.[field]))
    .filter((each): each is string => each !== undefined);
}

/**
 * The event in an EventBridge message from SES (`detail`), or undefined
 * when it is not one of ours: another type, no tags of ours (an email
 * another sender of the account sent), or a malformed record.
 */
export function emailEventOf(detail: unknown): EmailEvent | undefined {
  const record = object(detail);
  const type = text(record?.eventType, 40) ?? text(record?.notificationType, 40);
  const fate = type ? FATE_OF_TYPE[type] : undefined;
  const mail = object(record?.mail);
  const tags = object(mail?.tags);
  if (!record || !fate || !mail || !tags) return undefined;
  const kind = firstTag(tags, 'kind');
  const parsedTags = {
    formId: firstTag(tags, 'formId'),
    submissionId: firstTag(tags, 'submissionId'),
    teamId: firstTag(tags, 'teamId'),
    kind:
      kind === 'notification' || kind === 'autoreply' || kind === 'malware' || kind === 'confirm'
        ? kind
        : undefined,
  };
  const messageId = text(mail.messageId, 200);
  if (!messageId || Object.values(parsedTags).some((value) => value === undefined)) {
    return undefined;
  }
  const event: EmailEvent = {
    fate,
    at: text(mail.timestamp, 40) ?? new Date(0).toISOString(),
    messageId,
    tags: parsedTags as EmailTags,
    recipients: addresses(mail.destination),
  };
  // Which recipients each type is about, as SES's event record format says: a Send or a
  // Reject is about the whole email, the others name their own recipients.
  if (fate === 'bounced') {
    const bounce = object(record.bounce);
    const bounceType = text(bounce?.bounceType, 20);
    event.bounceType =
      bounceType === 'Permanent' || bounceType === 'Transient' ? bounceType : 'Undetermined';
    const subType = text(bounce?.bounceSubType, 60);
    if (subType) event.bounceSubType = subType;
    event.recipients = recipientsOf(bounce?.bouncedRecipients, 'emailAddress');
    event.at = text(bounce?.timestamp, 40) ?? event.at;
  } else if (fate === 'complained') {
    const complaint = object(record.complaint);
    event.recipients = recipientsOf(complaint?.complainedRecipients, 'emailAddress');
    event.at = text(complaint?.timestamp, 40) ?? event.at;
  } else if (fate === 'delivered') {
    const delivery = object(record.delivery);
    event.recipients = addresses(delivery?.recipients);
    event.at = text(delivery?.timestamp, 40) ?? event.at;
  } else if (fate === 'delayed') {
    const delay = object(record.deliveryDelay);
    event.recipients = recipientsOf(delay?.delayedRecipients, 'emailAddress');
    event.at = text(delay?.timestamp, 40) ?? event.at;
  } else {
    event.at = text(object(record[lower(type!)])?.timestamp, 40) ?? event.at;
  }
  return event;
}

const lower = (type: string) => type.charAt(0).toLowerCase() + type.slice(1);

/**
 * The recipients a bounce or complaint is about, as the email was sent to
 * them. SES names a bounced recipient by the DSN's `Final-Recipient` when
 * there is one, which for a forward or an alias (`team@acme.test` → `bob@x`)
 * is not the address sent to: when the event names none of the addresses
 * sent to and the email went to one address only, it is that address (the
 * one to stop mailing). With several, which one cannot be told: as named.
 */
export function asSentTo(
  named: readonly string[],
  sentTo: readonly string[] | undefined,
): string[] {
  if (!sentTo || sentTo.length !== 1) return [...named];
  const sent = new Set(sentTo.map((each) => each.trim().toLowerCase()));
  return named.some((each) => sent.has(each.toLowerCase())) ? [...named] : [...sentTo];
}

/**
 * Whether the event puts its recipients on the team's suppression list
 * (docs/delivery.md#suppressed-addresses): a permanent bounce (the mailbox
 * does not exist) or a complaint (the person marked it as spam). A
 * transient bounce (a full mailbox) passes: the next email may arrive.
 */
export function suppresses(event: EmailEvent): boolean {
  return (
    (event.fate === 'bounced' && event.bounceType === 'Permanent') || event.fate === 'complained'
  );
}

/**
 * The mailbox an address reaches, as suppression compares it: trimmed, case
 * folded, `+tags` and Gmail's dots dropped (mailboxOf), so `ada+1@gmail.com`
 * cannot slip past `ada@gmail.com`'s complaint.
 */
export const suppressionAddress = (address: string): string => mailboxOf(address);
