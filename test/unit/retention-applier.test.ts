import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '#config';
import { handler as retentionApplier } from '#events/retention-applier.ts';
import { dispatchedEvent } from '#test/support/dispatched-events.ts';

// The handler runs for real (Powertools batch processor, log, EMF metrics);
// only the store, S3 and Scheduler calls behind it are stand-ins.
const calls = vi.hoisted(() => ({
  walkFolder: vi.fn((formId: string, folder: string, options: unknown) => ({
    formId,
    folder,
    options,
  })),
  editSubmissions: vi.fn<(formId: string, ...rest: unknown[]) => Promise<{ count: number }>>(),
  deleteFilesOf: vi.fn(),
  scheduleRetentionSweep: vi.fn<(formId: string, at: string) => Promise<void>>(),
}));
vi.mock('#store/folder-reads.ts', () => ({ walkFolder: calls.walkFolder }));
vi.mock('#store/submission-changes.ts', () => ({
  editSubmissions: calls.editSubmissions,
  SUBMISSIONS_PER_TRANSACTION: 99,
}));
vi.mock('#aws/uploads.ts', () => ({ deleteFilesOf: calls.deleteFilesOf }));
vi.mock('#aws/scheduler.ts', () => ({ scheduleRetentionSweep: calls.scheduleRetentionSweep }));

beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const fn of Object.values(calls)) fn.mockReset();
});

/** A form item written, as the stream shows it; `retentionDays` undefined is a stored null. */
function formWritten(formId: string, sequence: string, retentionDays?: number): DynamoDBRecord {
  return {
    eventID: `e${sequence}`,
    eventName: 'MODIFY',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequence,
      Keys: { pk: { S: `FORM#${formId}` }, sk: { S: 'FORM' } },
      NewImage: {
        id: { S: formId },
        entity: { S: 'form' },
        retentionDays: retentionDays === undefined ? { NULL: true } : { N: String(retentionDays) },
      },
    },
  };
}

describe('retentionApplier (docs/submissions.md#retention)', () => {
  it('schedules each form’s next sweep 12 hours on, then purges `all` and `spam` up to the cut-off; a failed purge keeps its sweep scheduled and fails its records', async () => {
    calls.scheduleRetentionSweep.mockResolvedValue(undefined);
    calls.editSubmissions.mockImplementation(async (formId) => {
      if (formId === 'b') throw new Error('table unavailable');
      return { count: 2 };
    });
    const before = Date.now();

    const result = await retentionApplier(
      dispatchedEvent([
        formWritten('a', '1', 30),
        formWritten('b', '2', 1),
        formWritten('a', '3', 30),
        formWritten('c', '4'),
      ]),
    );

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    // Once per form a batch, even for the form whose purge then failed; none for `c` (no retention).
    expect(calls.scheduleRetentionSweep.mock.calls.map(([id]) => id)).toEqual(['a', 'b']);
    const next = Date.parse(calls.scheduleRetentionSweep.mock.calls[0]![1]);
    // 12 hours as deployed; the suite's global setup compresses it for the local stack.
    const sweepMs = config.retentionSweepSeconds * 1000;
    expect(next - before).toBeGreaterThanOrEqual(sweepMs - 1000);
    expect(next - Date.now()).toBeLessThanOrEqual(sweepMs);
    // Then the posts never confirmed by email, past their link (docs/submit.md#confirm-by-email).
    expect(calls.walkFolder.mock.calls.map(([id, folder]) => `${id} ${folder}`)).toEqual([
      'a all',
      'a spam',
      'a pending',
      'b all',
    ]);
    const pending = calls.walkFolder.mock.calls[2]![2] as { createdUpTo: string };
    expect(
      Math.abs(Date.now() - config.confirmLinkSeconds * 1000 - Date.parse(pending.createdUpTo)),
    ).toBeLessThan(60_000);
    const { createdUpTo } = calls.walkFolder.mock.calls[0]![2] as { createdUpTo: string };
    expect(
      Math.abs(Date.now() - 30 * config.retentionDaySeconds * 1000 - Date.parse(createdUpTo)),
    ).toBeLessThan(60_000);
  });

  it('purges nothing when the next sweep cannot be scheduled: the record is retried', async () => {
    calls.scheduleRetentionSweep.mockRejectedValue(new Error('scheduler unavailable'));
    await expect(retentionApplier(dispatchedEvent([formWritten('a', '1', 7)]))).rejects.toThrow();
    expect(calls.editSubmissions).not.toHaveBeenCalled();
  });

  it('two changes of one form in a batch apply once, as the newer left it (the FIFO group keeps their order)', async () => {
    calls.scheduleRetentionSweep.mockResolvedValue(undefined);
    calls.editSubmissions.mockResolvedValue({ count: 0 });

    const result = await retentionApplier(
      dispatchedEvent([formWritten('a', '1', 365), formWritten('a', '2', 1)]),
    );

    expect(result).toEqual({ batchItemFailures: [] });
    expect(calls.scheduleRetentionSweep).toHaveBeenCalledTimes(1);
    const cutOffs = calls.walkFolder.mock.calls
      .filter(([, folder]) => folder !== 'pending')
      .map(([, , options]) => (options as { createdUpTo: string }).createdUpTo);
    expect(cutOffs).toHaveLength(2);
    // 1 day (the newer), not 365 (the older).
    for (const upTo of cutOffs) {
      expect(
        Math.abs(Date.now() - 1 * config.retentionDaySeconds * 1000 - Date.parse(upTo)),
      ).toBeLessThan(60_000);
    }
  });
});
