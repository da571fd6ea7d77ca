import type { EmailOutcome, Form, Submission, Suppression } from './model.ts';

/**
 * What became of a submission's emails, and the team's suppression list, in
 * words (docs/dashboard.md#a-submission, docs/dashboard.md#the-privacy-screen;
 * the statuses are docs/delivery.md#what-became-of-an-email).
 */

const NO_MORE = "so no more emails go to it from this team's forms";

/** Each status in words: a `Record` over the API's statuses, so a new one cannot reach the screen as a code. */
const FATE_WORDS: Record<EmailOutcome['status'], (outcome: EmailOutcome) => string> = {
  sending: () => 'being sent',
  sent: () => "sent, waiting for the receiving server's answer",
  delayed: () =>
    'delayed: the receiving server has not taken it yet, and the mail service keeps trying',
  delivered: () => 'delivered',
  rejected: () => 'rejected by the mail service: it judged the email unsafe to send',
  bounced: (outcome) =>
    outcome.bounceType === 'Permanent'
      ? `bounced — the address does not exist, ${NO_MORE}`
      : outcome.bounceType === 'Transient'
        ? 'bounced for now — the mailbox could not take it (full, or the email too large); later emails still go to it'
        : 'bounced — the receiving server did not say why; later emails still go to it',
  complained: () => `marked as spam by the recipient, ${NO_MORE}`,
  refused: () => 'refused by the mail service, and not tried again',
  limited: () => 'held back: too many auto-replies this hour, to this address or from this form',
  suppressed: () =>
    "not sent: this address is on the team's suppression list (it bounced or complained before)",
};

/** The status in words, as a sentence starts ("Delivered", "Bounced — …"). */
export function fateWords(outcome: EmailOutcome): string {
  const words = FATE_WORDS[outcome.status](outcome);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The Cc addresses of an email that bounced or complained, each in a sentence
 * ("Not delivered to x@y (the address does not exist)"): the email's own status
 * is its To's, so a Cc's trouble would go unsaid otherwise.
 */
export function ccTroubles(outcome: EmailOutcome): string[] {
  return outcome.recipients.slice(1).flatMap((recipient) => {
    const who = recipient.email;
    if (recipient.status === 'complained') {
      return [`${who} marked it as spam, ${NO_MORE}`];
    }
    if (recipient.status !== 'bounced') return [];
    return [
      recipient.bounceType === 'Permanent'
        ? `Not delivered to ${who} (the address does not exist), ${NO_MORE}`
        : recipient.bounceType === 'Transient'
          ? `Not delivered to ${who} for now (the mailbox could not take it)`
          : `Not delivered to ${who} (the receiving server did not say why)`,
    ];
  });
}

/** Statuses that may still change: the page offers to read them again. */
const UNSETTLED = new Set<EmailOutcome['status']>(['sending', 'sent', 'delayed']);

/** The emails of a submission that were due, each named, in the order shown; none: nothing to show. */
export function emailLines(
  emails: Submission['emails'],
): { name: string; outcome: EmailOutcome; settled: boolean }[] {
  const lines = [
    { name: 'Notification to the team', outcome: emails?.notification },
    { name: 'Auto-reply', outcome: emails?.autoreply },
  ];
  return lines.flatMap(({ name, outcome }) =>
    outcome ? [{ name, outcome, settled: !UNSETTLED.has(outcome.status) }] : [],
  );
}

/** How long after a submission came its page keeps reading what became of its emails. */
export const WATCH_FOR_MS = 2 * 60_000;
/** How often it reads them meanwhile. */
export const WATCH_EVERY_MS = 3_000;

/**
 * Whether the page reads the emails again by itself: in the first minutes
 * after the submission came (an email not yet taken by the worker reads as
 * none), until one is there and every one there has settled (both are
 * queued together, so the other one, if due, is there by then). Spam gets
 * none, nor a form that sends neither.
 */
export function keepWatching(
  submission: Pick<Submission, 'createdAt' | 'isSpam' | 'emails'>,
  form: Pick<Form, 'notifyEnabled' | 'autoreplyEnabled'>,
  now = Date.now(),
): boolean {
  if (submission.isSpam || !(form.notifyEnabled || form.autoreplyEnabled)) return false;
  if (now - Date.parse(submission.createdAt) > WATCH_FOR_MS) return false;
  const lines = emailLines(submission.emails);
  return lines.length === 0 || lines.some((line) => !line.settled);
}

/** A time of day when `at` is today where the person is, else the date and time ("26 Nov, 12:04"). */
export function clockWords(at: string, now = new Date(), locale?: string): string {
  const when = new Date(at);
  const today = when.toDateString() === now.toDateString();
  return today
    ? when.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : when.toLocaleString(locale, {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** Why an address is on the team's suppression list. */
export function suppressionWhy(entry: Pick<Suppression, 'reason'>): string {
  return entry.reason === 'complaint'
    ? 'Complained: marked an email as spam'
    : 'Bounced: the address does not exist';
}
