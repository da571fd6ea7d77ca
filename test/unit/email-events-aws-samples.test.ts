import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emailEventOf, suppresses } from '#domain/email-events.ts';

/**
 * SES's events exactly as AWS documents them (test/fixtures/ses-events/README.md
 * says where each comes from), not as our own simulator writes them: the parser
 * must read AWS's format, whatever the simulator does.
 */
const sample = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/ses-events/${name}.json`, import.meta.url), 'utf8'),
  ) as { 'detail-type': string; detail: unknown };

const messageId = 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000';
const tags = {
  formId: 'f-sample',
  submissionId: 's-sample',
  kind: 'notification',
  teamId: 't-sample',
} as const;

describe("SES's documented event records read back", () => {
  it("Send: sent, at the email's time, about every destination", () => {
    const event = emailEventOf(sample('send').detail);
    expect(event).toEqual({
      fate: 'sent',
      at: '2016-10-14T05:02:16.645Z',
      messageId,
      tags,
      recipients: ['recipient@example.com'],
    });
  });

  it("Delivery: delivered, at the delivery's time, about the recipients it was delivered to", () => {
    const event = emailEventOf(sample('delivery').detail);
    expect(event).toEqual({
      fate: 'delivered',
      at: '2016-10-19T23:21:04.133Z',
      messageId,
      tags,
      recipients: ['recipient@example.com'],
    });
    expect(suppresses(event!)).toBe(false);
  });

  it('Bounce (permanent): bounced with its type and subtype, about the bounced recipients; suppresses', () => {
    const event = emailEventOf(sample('bounce-permanent').detail);
    expect(event).toEqual({
      fate: 'bounced',
      at: '2017-08-05T00:41:02.669Z',
      messageId,
      tags,
      recipients: ['recipient@example.com'],
      bounceType: 'Permanent',
      bounceSubType: 'General',
    });
    expect(suppresses(event!)).toBe(true);
  });

  it('Complaint: complained, about the complaining recipients; suppresses', () => {
    const event = emailEventOf(sample('complaint').detail);
    expect(event).toEqual({
      fate: 'complained',
      at: '2017-08-05T00:41:02.669Z',
      messageId,
      tags,
      recipients: ['recipient@example.com'],
    });
    expect(suppresses(event!)).toBe(true);
  });

  it("Reject: rejected, at the email's time (the record has none of its own), about every destination", () => {
    const event = emailEventOf(sample('reject').detail);
    expect(event).toEqual({
      fate: 'rejected',
      at: '2016-10-14T17:38:15.211Z',
      messageId,
      tags,
      // AWS's sample names the sender as its destination: taken as written.
      recipients: ['sender@example.com'],
    });
    expect(suppresses(event!)).toBe(false);
  });

  it("DeliveryDelay: delayed, at the delay's time, about the delayed recipients", () => {
    const event = emailEventOf(sample('delivery-delay').detail);
    expect(event).toEqual({
      fate: 'delayed',
      at: '2020-06-16T00:25:40.095Z',
      messageId,
      tags,
      recipients: ['recipient@example.com'],
    });
  });

  it('each sample is the EventBridge event SES publishes: source aws.ses, its detail type', () => {
    const types = [
      'send',
      'delivery',
      'bounce-permanent',
      'complaint',
      'reject',
      'delivery-delay',
    ].map((name) => sample(name)['detail-type']);
    expect(types).toEqual([
      'Email Sent',
      'Email Delivered',
      'Email Bounced',
      'Email Complaint Received',
      'Email Rejected',
      'Email Delivery Delayed',
    ]);
  });

  it('the same samples without our tags (another sender of the account) are not ours', () => {
    const bare = sample('bounce-permanent').detail as { mail: { tags: Record<string, unknown> } };
    for (const name of Object.keys(tags)) delete bare.mail.tags[name];
    expect(emailEventOf(bare)).toBeUndefined();
  });
});
