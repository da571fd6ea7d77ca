import { describe, expect, it } from 'vitest';
import { QUEUES } from '#queues';
import { EMAIL_CLAIM_LEASE_SECONDS, workers } from '#workers';

const emailWorker = workers.find((worker) => worker.name === 'emailWorker')!;

describe('the lease of an email claim', () => {
  it('outlives the email worker, so a claim is never taken from a worker still sending', () => {
    expect(EMAIL_CLAIM_LEASE_SECONDS).toBeGreaterThan(emailWorker.timeoutSeconds);
  });

  it('ends before the emails queue redelivers a message whose worker died after claiming', () => {
    // The claim is written at most a timeout after the receive; the message comes back a
    // visibility timeout after it, and must then find the claim expired, or it is skipped.
    expect(emailWorker.trigger).toMatchObject({ kind: 'queue', queue: 'emails' });
    expect(emailWorker.timeoutSeconds + EMAIL_CLAIM_LEASE_SECONDS).toBeLessThan(
      QUEUES.emails.visibilityTimeoutSeconds,
    );
  });
});
