import { describe, expect, it } from 'vitest';
import { emailEventOf } from '#domain/email-events.ts';
import { SIGN_IN_TAGS } from '#events/sign-in-mailer.ts';

/**
 * Sign-in emails go out with the stack's configuration set (so SES's reputation
 * metrics count them) tagged `kind=signin` alone: their events reach the email
 * event worker, which must skip them, with no form or submission to record a
 * fate on and no team whose list a bounce would join
 * (docs/delivery.md#what-became-of-an-email).
 */
const tagsAsSesGivesThem = {
  'ses:configuration-set': ['form-service-local'],
  ...Object.fromEntries(SIGN_IN_TAGS.map((tag) => [tag.Name, [tag.Value]])),
};
const mail = {
  timestamp: '2026-11-26T10:00:00.000Z',
  messageId: 'm-signin',
  destination: ['ada@example.com'],
  tags: tagsAsSesGivesThem,
};

describe('the events of a sign-in email', () => {
  it('carry the kind only: no form, submission or team', () => {
    expect(SIGN_IN_TAGS).toEqual([{ Name: 'kind', Value: 'signin' }]);
  });

  it.each([
    ['Send', { send: {} }],
    ['Delivery', { delivery: { timestamp: mail.timestamp } }],
    [
      'Bounce',
      {
        bounce: {
          bounceType: 'Permanent',
          bouncedRecipients: [{ emailAddress: 'ada@example.com' }],
        },
      },
    ],
    ['Complaint', { complaint: { complainedRecipients: [{ emailAddress: 'ada@example.com' }] } }],
  ])('%s is not one of ours: skipped, nothing recorded or suppressed', (eventType, body) => {
    expect(emailEventOf({ eventType, mail, ...body })).toBeUndefined();
  });
});
