import { describe, expect, it } from 'vitest';
import {
  ccTroubles,
  clockWords,
  emailLines,
  fateWords,
  keepWatching,
  suppressionWhy,
  WATCH_FOR_MS,
} from '#app/email-fate-model.ts';
import type { EmailOutcome } from '#app/model.ts';
import { EMAIL_STATUSES } from '#domain/email-outcomes.ts';

const at = '2026-11-26T12:04:00.000Z';
const outcome = (
  status: EmailOutcome['status'],
  bounceType: EmailOutcome['bounceType'] = null,
): EmailOutcome => ({ status, at, bounceType, recipients: [] });

describe('what became of an email, in words (docs/dashboard.md#a-submission)', () => {
  it('says every status in words', () => {
    for (const status of EMAIL_STATUSES)
      expect(fateWords(outcome(status)), status).toMatch(/^[A-Z][a-z ,;:'—()-]+[a-z)]$/);
    expect(fateWords(outcome('delivered'))).toBe('Delivered');
    expect(fateWords(outcome('sending'))).toBe('Being sent');
    expect(fateWords(outcome('sent'))).toBe("Sent, waiting for the receiving server's answer");
    expect(fateWords(outcome('complained'))).toBe(
      "Marked as spam by the recipient, so no more emails go to it from this team's forms",
    );
    expect(fateWords(outcome('suppressed'))).toBe(
      "Not sent: this address is on the team's suppression list (it bounced or complained before)",
    );
    expect(fateWords(outcome('limited'))).toMatch(/^Held back: too many auto-replies this hour/);
    expect(fateWords(outcome('refused'))).toMatch(/^Refused by the mail service/);
  });

  it('tells a permanent bounce (no more emails) from a passing one (later emails still go)', () => {
    expect(fateWords(outcome('bounced', 'Permanent'))).toBe(
      "Bounced — the address does not exist, so no more emails go to it from this team's forms",
    );
    expect(fateWords(outcome('bounced', 'Transient'))).toMatch(/later emails still go to it$/);
    expect(fateWords(outcome('bounced', 'Undetermined'))).toMatch(/later emails still go to it$/);
  });

  it('lists the emails that were due, notification first; none when neither was', () => {
    expect(emailLines(undefined)).toEqual([]);
    expect(emailLines({ notification: null, autoreply: null })).toEqual([]);
    expect(
      emailLines({ notification: null, autoreply: outcome('delivered') }).map((l) => l.name),
    ).toEqual(['Auto-reply']);
    const both = emailLines({ notification: outcome('sent'), autoreply: outcome('bounced') });
    expect(both.map((line) => [line.name, line.settled])).toEqual([
      ['Notification to the team', false],
      ['Auto-reply', true],
    ]);
  });

  it('reads again by itself after a submission came, until what is there has settled', () => {
    const came = Date.parse(at);
    const sends = { notifyEnabled: true, autoreplyEnabled: false };
    const of = (emails: Parameters<typeof emailLines>[0], isSpam = false) => ({
      createdAt: at,
      isSpam,
      emails,
    });
    const none = { notification: null, autoreply: null };
    expect(keepWatching(of(none), sends, came + 1_000)).toBe(true);
    expect(keepWatching(of({ ...none, notification: outcome('sent') }), sends, came + 1_000)).toBe(
      true,
    );
    expect(
      keepWatching(of({ ...none, notification: outcome('delivered') }), sends, came + 1_000),
    ).toBe(false);
    expect(keepWatching(of(none), sends, came + WATCH_FOR_MS + 1)).toBe(false);
    expect(keepWatching(of(none, true), sends, came + 1_000)).toBe(false);
    expect(
      keepWatching(of(none), { notifyEnabled: false, autoreplyEnabled: false }, came + 1_000),
    ).toBe(false);
  });

  it('says a time of today as the clock, another day with its date', () => {
    const sameDay = new Date(Date.parse(at) + 60_000);
    expect(clockWords(at, sameDay, 'en-GB')).toBe(
      new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }),
    );
    const later = new Date(Date.parse(at) + 3 * 86_400_000);
    expect(clockWords(at, later, 'en-GB')).toMatch(/Nov/);
  });

  it('says why an address is on the suppression list', () => {
    expect(suppressionWhy({ reason: 'bounce' })).toBe('Bounced: the address does not exist');
    expect(suppressionWhy({ reason: 'complaint' })).toBe('Complained: marked an email as spam');
  });
});

describe("a Cc's trouble, in words", () => {
  const recipient = (
    email: string,
    status: EmailOutcome['recipients'][number]['status'],
    bounceType: EmailOutcome['bounceType'] = null,
  ) => ({ email, status, at, bounceType });

  it('names each Cc that bounced or complained, never the To, nor one that is fine', () => {
    const email: EmailOutcome = {
      ...outcome('delivered'),
      recipients: [
        recipient('to@example.com', 'delivered'),
        recipient('gone@example.com', 'bounced', 'Permanent'),
        recipient('full@example.com', 'bounced', 'Transient'),
        recipient('odd@example.com', 'bounced', 'Undetermined'),
        recipient('angry@example.com', 'complained'),
        recipient('fine@example.com', 'delivered'),
        recipient('waiting@example.com', 'sent'),
      ],
    };
    expect(ccTroubles(email)).toEqual([
      "Not delivered to gone@example.com (the address does not exist), so no more emails go to it from this team's forms",
      'Not delivered to full@example.com for now (the mailbox could not take it)',
      'Not delivered to odd@example.com (the receiving server did not say why)',
      "angry@example.com marked it as spam, so no more emails go to it from this team's forms",
    ]);
    // The To's own bounce is the email's status, said on its line.
    expect(
      ccTroubles({
        ...outcome('bounced', 'Permanent'),
        recipients: [recipient('to@example.com', 'bounced', 'Permanent')],
      }),
    ).toEqual([]);
    expect(ccTroubles(outcome('sent'))).toEqual([]);
  });
});
