import { beforeAll, describe, expect, it } from 'vitest';
import { stack } from '#test/support/api.ts';
import { eventOf, sqsRecord } from '#test/support/email-worker.ts';
import { newForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * The scan worker's late check (docs/uploads-and-pages.md#malware-scanning),
 * run here in the test process against the test stack's table and queue,
 * with the deployed 30 minutes (the stack's own worker has 5 seconds). A
 * check received before it is due is sent on as a copy and handled: failing
 * the record instead (hidden until due) failed a batch of one, which Lambda
 * counts as an error of the worker, and its errors alarm would page for
 * every submission with a file.
 */

let handler: typeof import('#events/scan-result-worker.ts').handler;

beforeAll(async () => {
  await localStore();
  process.env.SCAN_RESULT_QUEUE_URL = stack().queues.scanResults!.url;
  process.env.AWS_ENDPOINT_URL_SQS = stack().endpoints.sqs;
  process.env.SCAN_LATE_SECONDS = '1800';
  process.env.LOG_LEVEL = 'warn';
  ({ handler } = await import('#events/scan-result-worker.ts'));
});

describe('a late check received before it is due', () => {
  it('is handled (a copy sent on to its time), not failed', async () => {
    const form = await newForm('pro');
    const posted = await submit(form.key, {
      json: { email: 'a@example.com' },
      from: freshVisitor(),
    });
    expect(posted.status, posted.text).toBe(200);
    const check = { check: 'late', formId: form.id, submissionId: posted.body?.submissionId };
    const result = await handler(eventOf(sqsRecord(check, crypto.randomUUID())));
    expect(result).toEqual({ batchItemFailures: [] });
  });
});
