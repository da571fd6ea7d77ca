import { describe, expect, it } from 'vitest';
import {
  nextPendingSweepAt,
  PENDING_SWEEP_GRACE_SECONDS,
  pendingSweepName,
  pendingSweepRecord,
} from '#domain/pending-sweep.ts';

const LINK = 172_800;

describe('a form’s pending sweep (docs/submit.md#confirm-by-email)', () => {
  it('is due at the oldest waiting post’s link expiry plus the grace', () => {
    const now = new Date('2030-01-01T10:00:00.000Z');
    const posted = '2030-01-01T09:59:58.250Z';
    const due = Date.parse(posted) + (LINK + PENDING_SWEEP_GRACE_SECONDS) * 1000;
    expect(nextPendingSweepAt(posted, LINK, now)).toBe(new Date(due).toISOString());
    expect(new Date(due).toISOString()).toBe('2030-01-03T10:00:03.250Z');
  });

  it('never before now plus the grace: an expiry already past (a post the index still shows) comes again soon, not in the past', () => {
    const now = new Date('2030-01-05T00:00:00.000Z');
    expect(nextPendingSweepAt('2030-01-01T00:00:00.000Z', LINK, now)).toBe(
      new Date(now.getTime() + PENDING_SWEEP_GRACE_SECONDS * 1000).toISOString(),
    );
  });

  it('is named after the form, within the Scheduler’s 64 characters', () => {
    const name = pendingSweepName('0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10');
    expect(name).toBe('pending-sweep-0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10');
    expect(name.length).toBeLessThanOrEqual(64);
  });

  it('hands the purger a record in the group of the form’s posts, the same for a retried run', () => {
    const event = { formId: 'f1', at: '2030-01-03T10:00:05.000Z' };
    const message = pendingSweepRecord(event, 'FORM#f1');
    expect(message).toEqual({
      body: {
        eventID: 'pending-sweep:f1@2030-01-03T10:00:05.000Z',
        eventName: 'MODIFY',
        dynamodb: { Keys: { pk: { S: 'FORM#f1' } }, NewImage: { formId: { S: 'f1' } } },
      },
      groupId: 'FORM#f1',
      deduplicationId: 'pending-sweep:f1@2030-01-03T10:00:05.000Z',
    });
    expect(pendingSweepRecord({ ...event }, 'FORM#f1')).toEqual(message);
    expect(
      pendingSweepRecord({ ...event, at: '2030-01-04T00:00:00.000Z' }, 'FORM#f1').deduplicationId,
    ).not.toBe(message.deduplicationId);
  });
});
