import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '#config';
import { PENDING_SWEEP_GRACE_SECONDS, pendingSweepRecord } from '#domain/pending-sweep.ts';
import { handler as pendingPurger } from '#events/pending-purger.ts';
import { dispatchedEvent } from '#test/support/dispatched-events.ts';

// The handler runs for real (Powertools batch processor, log, EMF metrics); only the store,
// S3 and Scheduler calls behind it are stand-ins, to say what the index holds and to make the
// Scheduler fail (the local stack's emulator does not). The local stack's integration test
// (confirm-email.test.ts) runs the same path against the real emulators.
const calls = vi.hoisted(() => ({
  walkFolder: vi.fn(() => ({})),
  editSubmissions: vi.fn<(formId: string, ...rest: unknown[]) => Promise<{ count: number }>>(),
  oldestPostIn: vi.fn<(formId: string, folder: string) => Promise<string | undefined>>(),
  deleteFilesOf: vi.fn(),
  schedulePendingSweep: vi.fn<(formId: string, at: string) => Promise<void>>(),
  cancelPendingSweep: vi.fn<(formId: string) => Promise<void>>(),
}));
vi.mock('#store/folder-reads.ts', () => ({
  walkFolder: calls.walkFolder,
  oldestPostIn: calls.oldestPostIn,
}));
vi.mock('#store/submission-changes.ts', () => ({
  editSubmissions: calls.editSubmissions,
  SUBMISSIONS_PER_TRANSACTION: 99,
}));
vi.mock('#store/summary-buckets.ts', () => ({ addToHour: vi.fn() }));
vi.mock('#aws/uploads.ts', () => ({ deleteFilesOf: calls.deleteFilesOf }));
vi.mock('#aws/scheduler.ts', () => ({
  schedulePendingSweep: calls.schedulePendingSweep,
  cancelPendingSweep: calls.cancelPendingSweep,
}));

beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  calls.editSubmissions.mockResolvedValue({ count: 0 });
  calls.schedulePendingSweep.mockResolvedValue(undefined);
  calls.cancelPendingSweep.mockResolvedValue(undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const fn of Object.values(calls)) fn.mockReset();
});

/** A pending post stored, as the dispatcher hands it on (its formId only). */
function pendingStored(formId: string, sequence: string): DynamoDBRecord {
  return {
    eventID: `e${sequence}`,
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: sequence,
      Keys: { pk: { S: `FORM#${formId}` }, sk: { S: `SUB#${sequence}` } },
      NewImage: { formId: { S: formId } },
    },
  };
}

/** What the pending sweeper puts on the queue when the form's sweep comes due. */
function sweepDue(formId: string, sequence: string): DynamoDBRecord {
  const { body } = pendingSweepRecord({ formId, at: '2030-01-01T00:00:05.000Z' }, `FORM#${formId}`);
  return { ...body, dynamodb: { ...body.dynamodb, SequenceNumber: sequence } } as DynamoDBRecord;
}

describe('pendingPurger and the form’s pending sweep (docs/submit.md#confirm-by-email)', () => {
  it('purges once per form a batch, then moves each form’s sweep to its oldest waiting post’s expiry, or removes it when none waits', async () => {
    const oldest = new Date(Date.now() - 1000).toISOString();
    calls.oldestPostIn.mockImplementation(async (formId) => (formId === 'a' ? oldest : undefined));

    const result = await pendingPurger(
      dispatchedEvent([pendingStored('a', '1'), sweepDue('b', '2'), pendingStored('a', '3')]),
    );

    expect(result).toEqual({ batchItemFailures: [] });
    expect(calls.editSubmissions.mock.calls.map(([formId]) => formId)).toEqual(['a', 'b']);
    expect(calls.oldestPostIn.mock.calls).toEqual([
      ['a', 'pending'],
      ['b', 'pending'],
    ]);
    const expiry =
      Date.parse(oldest) + (config.confirmLinkSeconds + PENDING_SWEEP_GRACE_SECONDS) * 1000;
    expect(calls.schedulePendingSweep.mock.calls).toEqual([['a', new Date(expiry).toISOString()]]);
    expect(calls.cancelPendingSweep.mock.calls).toEqual([['b']]);
  });

  it('a sweep that cannot be written fails the form’s records, so the queue brings them back (fault injected: the Scheduler refuses)', async () => {
    calls.oldestPostIn.mockResolvedValue(new Date().toISOString());
    calls.schedulePendingSweep.mockImplementation(async (formId) => {
      if (formId === 'a') throw new Error('scheduler unavailable');
    });

    const result = await pendingPurger(
      dispatchedEvent([pendingStored('a', '1'), pendingStored('b', '2')]),
    );

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '1' }] });
    expect(calls.schedulePendingSweep.mock.calls.map(([formId]) => formId)).toEqual(['a', 'b']);
  });
});
