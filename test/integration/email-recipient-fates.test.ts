import { beforeAll, describe, expect, it } from 'vitest';
import { localStore } from '#test/support/store.ts';

/**
 * Each recipient's fate kept apart on the email's mark (docs/delivery.md#what-became-of-an-email),
 * written by the store against the test stack's table: events in any order, each stronger
 * only for its own recipient; marks claimed before recipients had fates still take the
 * email-level fate.
 */
let store: typeof import('#store/deliveries.ts');
beforeAll(async () => {
  await localStore();
  store = await import('#store/deliveries.ts');
});

const ids = () => ({ formId: crypto.randomUUID(), submissionId: crypto.randomUUID() });
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, seconds)).toISOString();
const mark = async (formId: string, submissionId: string) =>
  (await store.getEmailMarks(formId, submissionId)).notification;

describe('fates per recipient on the mark', () => {
  it('a claim starts an empty map; each event updates its own recipients, a weaker one never replaces a stronger', async () => {
    const { formId, submissionId } = ids();
    const claimed = await store.claimEmail(formId, submissionId, 'notification', new Date(), 60);
    expect(claimed).toBe('claimed');
    expect((await mark(formId, submissionId))?.recipientFates).toEqual({});
    await store.recordEmailSent(formId, submissionId, 'notification', {
      messageId: 'm-1',
      now: new Date(),
      to: ['Owner@Example.com', 'cc@example.com'],
    });
    const event = (fate: 'sent' | 'delivered' | 'bounced', recipients: string[], second: number) =>
      store.recordEmailFate(formId, submissionId, 'notification', {
        fate,
        at: at(second),
        recipients,
        ...(fate === 'bounced' ? { bounceType: 'Permanent' as const } : {}),
      });
    // The Cc's bounce comes first; its late Send and the To's delivery after.
    expect(await event('bounced', ['cc@example.com'], 3)).toBe(true);
    expect(await event('delivered', ['OWNER@example.com'], 2)).toBe(true);
    expect(await event('sent', ['Owner@Example.com', 'cc@example.com'], 1)).toBe(false);
    expect(await event('delivered', ['cc@example.com'], 4)).toBe(false);
    const stored = await mark(formId, submissionId);
    expect(stored?.sentTo).toEqual(['Owner@Example.com', 'cc@example.com']);
    expect(stored?.recipientFates).toEqual({
      'owner@example.com': { fate: 'delivered', rank: 3, at: at(2) },
      'cc@example.com': { fate: 'bounced', rank: 5, at: at(3), bounceType: 'Permanent' },
    });
    // The email-level fields stay unwritten: the To's fate is the email's.
    expect(stored?.fate).toBeUndefined();
  });

  it('a mark claimed before recipients had fates (no map) takes the email-level fate, stronger only', async () => {
    const { formId, submissionId } = ids();
    const { documents } = await localStore();
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    await documents.send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: {
          pk: `FORM#${formId}`,
          sk: `EMAIL#${submissionId}#notification`,
          entity: 'emailMark',
          claimedAt: at(0),
          sentAt: at(1),
        },
      }),
    );
    const event = (fate: 'delivered' | 'complained', second: number) =>
      store.recordEmailFate(formId, submissionId, 'notification', {
        fate,
        at: at(second),
        recipients: ['ada@example.com'],
      });
    expect(await event('complained', 5)).toBe(true);
    expect(await event('delivered', 4)).toBe(false);
    const stored = await mark(formId, submissionId);
    expect(stored).toMatchObject({ fate: 'complained', fateAt: at(5) });
    expect(stored?.recipientFates).toBeUndefined();
  });

  it('an erased submission (no mark) records nothing', async () => {
    const { formId, submissionId } = ids();
    expect(
      await store.recordEmailFate(formId, submissionId, 'notification', {
        fate: 'delivered',
        at: at(1),
        recipients: ['ada@example.com'],
      }),
    ).toBe(false);
    expect(await mark(formId, submissionId)).toBeUndefined();
  });
});
