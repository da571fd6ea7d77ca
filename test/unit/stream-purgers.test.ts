import { FullBatchFailureError } from '@aws-lambda-powertools/batch';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { handler as formPurger } from '#events/form-purger.ts';
import { handler as spamPurger } from '#events/spam-purger.ts';
import { dispatchedEvent } from '#test/support/dispatched-events.ts';

// The purgers' handlers run for real (Powertools batch processor, log, EMF
// metrics); only the store and S3 calls behind them are stand-ins.
const store = vi.hoisted(() => ({
  purgeFormPartition: vi.fn<(formId: string) => Promise<number>>(),
  deleteFormUploads: vi.fn<(formId: string) => Promise<number>>(),
  deleteFilesOf: vi.fn(),
  walkFolder: vi.fn((formId: string, folder: string, options: unknown) => ({
    formId,
    folder,
    options,
  })),
  editSubmissions: vi.fn<(formId: string, ...rest: unknown[]) => Promise<{ count: number }>>(),
}));
vi.mock('#store/forms.ts', () => ({ purgeFormPartition: store.purgeFormPartition }));
vi.mock('#aws/uploads.ts', () => ({
  deleteFormUploads: store.deleteFormUploads,
  deleteFilesOf: store.deleteFilesOf,
}));
vi.mock('#store/folder-reads.ts', () => ({ walkFolder: store.walkFolder }));
vi.mock('#store/submission-changes.ts', () => ({
  editSubmissions: store.editSubmissions,
  SUBMISSIONS_PER_TRANSACTION: 99,
}));

let stdout: string[];
let stderr: string[];

beforeEach(() => {
  stdout = [];
  stderr = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    stdout.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
    stderr.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const fn of Object.values(store)) fn.mockReset();
});

const lines = (stream: string[]) =>
  stream.map((line) => JSON.parse(line) as Record<string, unknown>);
const emfLines = () => lines(stdout).filter((line) => '_aws' in line);
const logLines = (stream: string[]) => lines(stream).filter((line) => 'message' in line);

function removedForm(formId: string, sequence: string): DynamoDBRecord {
  return {
    eventID: `e${sequence}`,
    eventName: 'REMOVE',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequence,
      Keys: { pk: { S: `FORM#${formId}` }, sk: { S: 'FORM' } },
      OldImage: { id: { S: formId }, entity: { S: 'form' } },
    },
  };
}

function insertedSpam(formId: string, sequence: string): DynamoDBRecord {
  return {
    eventID: `e${sequence}`,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: sequence,
      Keys: { pk: { S: `FORM#${formId}` }, sk: { S: `SUB#${sequence}` } },
      NewImage: { formId: { S: formId }, entity: { S: 'submission' }, isSpam: { BOOL: true } },
    },
  };
}

/** The purgers' records come as the stream dispatcher hands them on: FIFO messages grouped by form. */
const batch = (...records: DynamoDBRecord[]) => dispatchedEvent(records);

/** Records how many calls run at once, so a test can tell sequential from parallel. */
function concurrency() {
  let running = 0;
  let peak = 0;
  return {
    get peak() {
      return peak;
    },
    async run<T>(fn: () => T | Promise<T>): Promise<T> {
      running++;
      peak = Math.max(peak, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await fn();
      } finally {
        running--;
      }
    },
  };
}

describe('formPurger', () => {
  it('purges the partition, then the uploads, of each removed form in turn and counts FormPurged', async () => {
    const calls: string[] = [];
    const gauge = concurrency();
    store.purgeFormPartition.mockImplementation((formId) =>
      gauge.run(() => {
        calls.push(`partition ${formId}`);
        return 7;
      }),
    );
    store.deleteFormUploads.mockImplementation(async (formId) => {
      calls.push(`uploads ${formId}`);
      return 2;
    });

    const result = await formPurger(batch(removedForm('f1', '1'), removedForm('f2', '2')));

    expect(result).toEqual({ batchItemFailures: [] });
    expect(calls).toEqual(['partition f1', 'uploads f1', 'partition f2', 'uploads f2']);
    expect(gauge.peak).toBe(1);
    expect(logLines(stdout)).toMatchObject([
      { level: 'info', message: 'deleted form purged', formId: 'f1', items: 7, uploads: 2 },
      { level: 'info', message: 'deleted form purged', formId: 'f2', items: 7, uploads: 2 },
    ]);
    const [metrics, ...more] = emfLines();
    expect(more).toEqual([]);
    expect(metrics).toMatchObject({ FormPurged: [1, 1], service: 'form-service' });
    expect(JSON.stringify(metrics)).not.toContain('f1');
  });

  it('reports only the failed record, logging its error; the records after it are still purged', async () => {
    store.purgeFormPartition.mockImplementation(async (formId) => {
      if (formId === 'f2') throw new Error('throttled');
      return 1;
    });
    store.deleteFormUploads.mockResolvedValue(0);

    const result = await formPurger(
      batch(removedForm('f1', '1'), removedForm('f2', '2'), removedForm('f3', '3')),
    );

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(store.purgeFormPartition.mock.calls.map(([id]) => id)).toEqual(['f1', 'f2', 'f3']);
    expect(logLines(stderr)).toMatchObject([
      {
        level: 'error',
        message: 'purge of a deleted form failed',
        formId: 'f2',
        error: { name: 'Error', message: 'throttled' },
      },
    ]);
    expect(emfLines()).toMatchObject([{ FormPurged: [1, 1] }]);
  });

  it('takes a record without a form id as done', async () => {
    const record = removedForm('f1', '1');
    delete record.dynamodb!.OldImage;
    expect(await formPurger(batch(record))).toEqual({ batchItemFailures: [] });
    expect(store.purgeFormPartition).not.toHaveBeenCalled();
    expect(stdout).toEqual([]);
  });

  it('throws when every record failed, so the queue hands every message back', async () => {
    store.purgeFormPartition.mockRejectedValue(new Error('table unavailable'));

    await expect(formPurger(batch(removedForm('f1', '1'), removedForm('f2', '2')))).rejects.toThrow(
      FullBatchFailureError,
    );
    expect(logLines(stderr).map((line) => line.formId)).toEqual(['f1', 'f2']);
    expect(emfLines()).toEqual([]);
  });
});

describe('spamPurger', () => {
  it('purges each form once per batch; a failed purge fails every record of its form (the later ones without running), a vanished form (404) none', async () => {
    const gauge = concurrency();
    store.editSubmissions.mockImplementation((formId) =>
      gauge.run(() => {
        if (formId === 'b') throw new Error('conflict');
        if (formId === 'c') throw new ServiceError('not_found', 'Form not found');
        return { count: formId === 'a' ? 3 : 0 };
      }),
    );

    const result = await spamPurger(
      batch(
        insertedSpam('a', '1'),
        insertedSpam('b', '2'),
        insertedSpam('a', '3'),
        insertedSpam('c', '4'),
        insertedSpam('b', '5'),
        insertedSpam('d', '6'),
      ),
    );

    expect(result).toEqual({
      batchItemFailures: [{ itemIdentifier: '2' }, { itemIdentifier: '5' }],
    });
    expect(store.editSubmissions.mock.calls.map(([id]) => id)).toEqual(['a', 'b', 'c', 'd']);
    expect(gauge.peak).toBe(1);
    // The spam folder is walked up to the retention cut-off (30 days by default).
    const [, folder, options] = store.walkFolder.mock.calls[0]!;
    expect(folder).toBe('spam');
    const upTo = Date.parse((options as { createdUpTo: string }).createdUpTo);
    expect(Math.abs(Date.now() - 30 * 86_400_000 - upTo)).toBeLessThan(60_000);
    expect(logLines(stdout)).toMatchObject([
      { message: 'expired spam deleted', formId: 'a', count: 3 },
    ]);
    expect(logLines(stderr)).toMatchObject([
      {
        level: 'error',
        message: 'purge of expired spam failed',
        formId: 'b',
        error: { message: 'conflict' },
      },
    ]);
    expect(emfLines()).toMatchObject([{ ExpiredSpamDeleted: 3, service: 'form-service' }]);
  });

  it('publishes no metric when nothing had expired', async () => {
    store.editSubmissions.mockResolvedValue({ count: 0 });
    expect(await spamPurger(batch(insertedSpam('a', '1')))).toEqual({ batchItemFailures: [] });
    expect(stdout).toEqual([]);
    expect(stderr).toEqual([]);
  });

  it('throws when every record failed', async () => {
    store.editSubmissions.mockRejectedValue(new Error('table unavailable'));
    await expect(
      spamPurger(batch(insertedSpam('a', '1'), insertedSpam('a', '2'), insertedSpam('b', '3'))),
    ).rejects.toThrow(FullBatchFailureError);
    expect(store.editSubmissions).toHaveBeenCalledTimes(2);
    expect(logLines(stderr).map((line) => line.formId)).toEqual(['a', 'b']);
  });
});
