import { describe, expect, it } from 'vitest';
import {
  asSentTo,
  EMAIL_FATES,
  emailEventOf,
  fateRank,
  sesTags,
  suppresses,
} from '#domain/email-events.ts';
import { simulatedEvents } from '#lib/local/emulators/ses-simulator.ts';

const tags = { formId: 'f1', submissionId: 's1', kind: 'autoreply', teamId: 't1' } as const;
const sent = (to: string[]) => ({
  ConfigurationSetName: 'set',
  EmailTags: sesTags(tags),
  FromEmailAddress: 'forms@example.com',
  Destination: { ToAddresses: to },
});
const now = new Date('2026-11-26T12:00:00.000Z');
const parsed = (to: string[]) =>
  simulatedEvents(sent(to), 'm-1', now).map((event) => emailEventOf(event.detail));

describe('SES events read back (the simulator writes them as SES documents them)', () => {
  it('a bounce mailbox: sent, then a permanent bounce that suppresses', () => {
    const [send, bounce] = parsed(['bounce@simulator.amazonses.com']);
    expect(send).toMatchObject({ fate: 'sent', messageId: 'm-1', tags });
    expect(bounce).toMatchObject({
      fate: 'bounced',
      bounceType: 'Permanent',
      bounceSubType: 'General',
      recipients: ['bounce@simulator.amazonses.com'],
      at: now.toISOString(),
    });
    expect(suppresses(bounce!)).toBe(true);
  });

  it('a complaint mailbox: delivered, then complained, which suppresses', () => {
    const events = parsed(['complaint+x@simulator.amazonses.com']);
    expect(events.map((event) => event?.fate)).toEqual(['sent', 'delivered', 'complained']);
    expect(suppresses(events[2]!)).toBe(true);
    expect(suppresses(events[1]!)).toBe(false);
  });

  it('any other address is delivered; a transient bounce does not suppress', () => {
    expect(parsed(['ada@example.com']).map((event) => event?.fate)).toEqual(['sent', 'delivered']);
    const transient = emailEventOf({
      eventType: 'Bounce',
      mail: {
        messageId: 'm',
        timestamp: 'x',
        tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])),
      },
      bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'a@b.c' }] },
    });
    expect(transient).toMatchObject({ fate: 'bounced', bounceType: 'Transient' });
    expect(suppresses(transient!)).toBe(false);
  });

  it('each event is about its own recipients: a Delivery about those delivered to, not every destination', () => {
    const request = {
      ...sent(['ada@example.com']),
      Destination: {
        ToAddresses: ['ada@example.com'],
        CcAddresses: ['bounce@simulator.amazonses.com'],
      },
    };
    const [send, delivery, bounce] = simulatedEvents(request, 'm-2', now).map((event) =>
      emailEventOf(event.detail),
    );
    expect(send?.recipients).toEqual(['ada@example.com', 'bounce@simulator.amazonses.com']);
    expect(delivery).toMatchObject({ fate: 'delivered', recipients: ['ada@example.com'] });
    expect(bounce).toMatchObject({
      fate: 'bounced',
      recipients: ['bounce@simulator.amazonses.com'],
    });
  });

  it('a delivery delay is about its delayed recipients only', () => {
    const delay = emailEventOf({
      eventType: 'DeliveryDelay',
      mail: {
        messageId: 'm',
        timestamp: '2026-11-26T12:00:00.000Z',
        destination: ['ada@example.com', 'grace@example.com'],
        tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])),
      },
      deliveryDelay: {
        timestamp: '2026-11-26T12:10:00.000Z',
        delayedRecipients: [{ emailAddress: 'grace@example.com' }],
      },
    });
    expect(delay).toMatchObject({
      fate: 'delayed',
      at: '2026-11-26T12:10:00.000Z',
      recipients: ['grace@example.com'],
    });
  });

  it('a blank recipient is dropped, one with spaces trimmed (a fate is keyed by the address)', () => {
    const bounce = emailEventOf({
      eventType: 'Bounce',
      mail: {
        messageId: 'm',
        timestamp: '2026-11-26T12:00:00.000Z',
        destination: [' ', ' ada@example.com '],
        tags: Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])),
      },
      bounce: {
        bounceType: 'Permanent',
        bouncedRecipients: [{ emailAddress: '   ' }, { emailAddress: ' ada@example.com ' }],
      },
    });
    expect(bounce?.recipients).toEqual(['ada@example.com']);
  });

  it('a bounce naming a forward’s final address is about the one address it was sent to', () => {
    // team@ forwards to bob@: the DSN's Final-Recipient is bob@, never mailed by us.
    expect(asSentTo(['bob@x.test'], ['Team@acme.test'])).toEqual(['Team@acme.test']);
    expect(asSentTo(['TEAM@acme.test'], ['team@acme.test'])).toEqual(['TEAM@acme.test']);
    // Sent to several, or not known: which one cannot be told, so as named.
    expect(asSentTo(['bob@x.test'], ['team@acme.test', 'cc@acme.test'])).toEqual(['bob@x.test']);
    expect(asSentTo(['bob@x.test'], undefined)).toEqual(['bob@x.test']);
  });

  it('nothing without a configuration set (as SES: no events)', () => {
    expect(
      simulatedEvents(
        { ...sent(['bounce@simulator.amazonses.com']), ConfigurationSetName: undefined },
        'm',
        now,
      ),
    ).toEqual([]);
  });

  it('an event of another sender (no tags of ours), an unknown type or a malformed record is not ours', () => {
    const mail = { messageId: 'm', tags: { 'ses:configuration-set': ['set'] } };
    expect(emailEventOf({ eventType: 'Delivery', mail })).toBeUndefined();
    expect(
      emailEventOf({ eventType: 'Open', mail: { ...mail, tags: { ...mail.tags, formId: ['f'] } } }),
    ).toBeUndefined();
    for (const bad of [
      null,
      'x',
      [],
      { eventType: 'Bounce' },
      { eventType: 'Bounce', mail: { tags: 'x' } },
    ]) {
      expect(emailEventOf(bad)).toBeUndefined();
    }
    const wrongKind = {
      ...Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, [v]])),
      kind: ['welcome'],
    };
    expect(
      emailEventOf({ eventType: 'Delivery', mail: { messageId: 'm', tags: wrongKind } }),
    ).toBeUndefined();
  });

  it('tag values keep to SES’s characters; fates rank weakest to strongest', () => {
    expect(sesTags({ ...tags, formId: 'a b/c' })[0]).toEqual({ Name: 'formId', Value: 'a_b_c' });
    expect(EMAIL_FATES.map((fate) => fateRank(fate))).toEqual([1, 2, 3, 4, 5, 6]);
    // A transient bounce (an out-of-office after delivery) does not hide the delivery,
    // and a permanent bounce later still replaces it.
    expect(fateRank('bounced', 'Transient')).toBeGreaterThan(fateRank('delayed'));
    expect(fateRank('bounced', 'Transient')).toBeLessThan(fateRank('delivered'));
    expect(fateRank('bounced', 'Permanent')).toBeGreaterThan(fateRank('bounced', 'Transient'));
    expect(fateRank('complained')).toBeGreaterThan(fateRank('delivered'));
    expect(fateRank('bounced')).toBeGreaterThan(fateRank('delivered'));
  });
});
