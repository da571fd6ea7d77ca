import { MessageRejected, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import type { EmailMessage } from '#domain/email-messages.ts';
import { emailsTo } from '#test/support/delivery.ts';
import {
  emailMark,
  emailWorkerUnderTest,
  eventOf,
  sqsRecord,
  unsentAutoreply,
} from '#test/support/email-worker.ts';
import { localStore } from '#test/support/store.ts';
import { EMAIL_CLAIM_LEASE_SECONDS } from '#workers';

/**
 * SES faults the emulator cannot produce (it accepts every well-formed message): the real
 * email worker runs here, in the test process, against the test stack's table, with only
 * `sendEmail` of `#aws/email.ts` replaced by a mock. `classifySendError` stays the real one.
 */
vi.mock('#aws/email.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#aws/email.ts')>()),
  sendEmail: vi.fn(),
}));

let handler: Awaited<ReturnType<typeof emailWorkerUnderTest>>['handler'];
let sendEmail: Awaited<ReturnType<typeof emailWorkerUnderTest>>['sendEmail'];

beforeAll(async () => {
  ({ handler, sendEmail } = await emailWorkerUnderTest('info'));
});

// The worker's JSON log lines and metrics, read off stdout.
let output: string[] = [];
beforeEach(() => {
  sendEmail.mockReset();
  output = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk, ...rest: unknown[]) => {
    output.push(String(chunk));
    // The worker's own lines are kept for the assertions, not echoed.
    if (String(chunk).startsWith('{')) return true;
    return write(chunk, ...(rest as []));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const sesError = <T>(
  ErrorClass: new (options: { message: string; $metadata: { httpStatusCode: number } }) => T,
  message: string,
  httpStatusCode: number,
) => new ErrorClass({ message, $metadata: { httpStatusCode } });

describe('email worker under SES faults', () => {
  it('a permanent rejection is not retried and the email is not sent again (SES client mocked to inject MessageRejected, which the emulator cannot produce)', async () => {
    const { job, owner, visitor } = await unsentAutoreply();
    sendEmail.mockRejectedValueOnce(
      sesError(MessageRejected, 'Email address is not verified.', 400),
    );

    const messageId = crypto.randomUUID();
    const first = await handler(eventOf(sqsRecord(job, messageId)));
    // Done with: the queue deletes it, no retry.
    expect(first).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    const [message, sender] = sendEmail.mock.calls[0] as [EmailMessage, { address: string }];
    expect(message).toMatchObject({ to: visitor, replyTo: owner, subject: 'Thanks Ada' });
    expect(sender).toEqual({ address: 'forms@example.com' });
    // Logged and counted.
    const logged = output.join('');
    expect(logged).toContain('email refused by SES, not retried');
    expect(logged).toContain('"EmailRejected"');
    expect(logged).not.toContain('"EmailRetried"');
    // The claim is kept, and final.
    const mark = await emailMark(job);
    expect(mark).toMatchObject({ entity: 'emailMark', refusedAt: expect.any(String) });

    // The same message delivered again (SQS is at least once), even long past the claim's
    // lease (the worker's clock moved on, Date only): nothing is sent.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(mark!.claimedAt) + (EMAIL_CLAIM_LEASE_SECONDS + 1) * 1000);
    const again = await handler(eventOf(sqsRecord(job, messageId, 2)));
    vi.useRealTimers();
    expect(again).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    expect(await emailsTo(visitor)).toEqual([]);
    expect(await emailMark(job)).toEqual(mark);
  });

  it('a throttled send is reported failed, its claim released, and a later delivery sends exactly once (SES client mocked to inject TooManyRequestsException)', async () => {
    const { job, owner, visitor } = await unsentAutoreply();
    sendEmail.mockRejectedValueOnce(
      sesError(TooManyRequestsException, 'Maximum sending rate exceeded.', 429),
    );
    sendEmail.mockResolvedValue({ messageId: 'ses-message-1' });

    // A batch of two: the throttled message, and one whose submission does not exist
    // (nothing to send, done), so the handler answers with the partial failure.
    const messageId = crypto.randomUUID();
    const goneId = crypto.randomUUID();
    const gone = { ...job, submissionId: `gone-${crypto.randomUUID().slice(0, 8)}` };
    const first = await handler(eventOf(sqsRecord(job, messageId), sqsRecord(gone, goneId)));
    expect(first).toEqual({ batchItemFailures: [{ itemIdentifier: messageId }] });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    const logged = output.join('');
    expect(logged).toContain('"EmailRetried"');
    expect(logged).not.toContain('"EmailRejected"');
    // The claim was given back.
    expect(await emailMark(job)).toBeUndefined();

    // The queue delivers it again after the visibility timeout: this time SES takes it.
    const retried = await handler(eventOf(sqsRecord(job, messageId, 2)));
    expect(retried).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(2);
    expect(sendEmail.mock.calls[1]?.[0]).toMatchObject({ to: visitor, replyTo: owner });
    expect(await emailMark(job)).toMatchObject({
      entity: 'emailMark',
      sentAt: expect.any(String),
      sesMessageId: 'ses-message-1',
    });

    // And once more (a duplicate): still sent exactly once.
    const duplicate = await handler(eventOf(sqsRecord(job, messageId, 3)));
    expect(duplicate).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(2);
    expect(sendEmail.mock.settledResults.map((result) => result.type)).toEqual([
      'rejected',
      'fulfilled',
    ]);
  });

  it('an auto-reply SES throttled three times still goes out on the fourth delivery: a send that failed for now gives the address its allowance back (SES client mocked to inject TooManyRequestsException)', async () => {
    const { job } = await unsentAutoreply();
    for (let i = 0; i < 3; i++) {
      sendEmail.mockRejectedValueOnce(
        sesError(TooManyRequestsException, 'Maximum sending rate exceeded.', 429),
      );
    }
    sendEmail.mockResolvedValue({ messageId: 'ses-message-4' });
    const messageId = crypto.randomUUID();
    for (const receiveCount of [1, 2, 3]) {
      await expect(handler(eventOf(sqsRecord(job, messageId, receiveCount)))).rejects.toThrow();
    }
    expect(await handler(eventOf(sqsRecord(job, messageId, 4)))).toEqual({
      batchItemFailures: [],
    });
    expect(sendEmail).toHaveBeenCalledTimes(4);
    expect(await emailMark(job)).toMatchObject({ sesMessageId: 'ses-message-4' });
    expect(output.join('')).not.toContain('"AutoReplyLimited"');
  });

  it('a batch of one throttled message fails whole, so the queue keeps it (SES client mocked to inject TooManyRequestsException)', async () => {
    const { job } = await unsentAutoreply();
    sendEmail.mockRejectedValueOnce(
      sesError(TooManyRequestsException, 'Maximum sending rate exceeded.', 429),
    );
    // Powertools throws when every record failed: Lambda then leaves the whole batch.
    await expect(handler(eventOf(sqsRecord(job, crypto.randomUUID())))).rejects.toThrow();
    expect(sendEmail).toHaveBeenCalledTimes(1);
    expect(await emailMark(job)).toBeUndefined();
  });

  it('an email SES accepted whose mark cannot be written is logged, not failed, so the queue does not send it again (sendEmail mocked to remove the mark while SES has the email, a write fault DynamoDB Local cannot be asked for)', async () => {
    const { job } = await unsentAutoreply();
    const { documents } = await localStore();
    sendEmail.mockImplementationOnce(async () => {
      await documents.send(
        new DeleteCommand({
          TableName: inject('localStack').tableName,
          Key: { pk: `FORM#${job.formId}`, sk: `EMAIL#${job.submissionId}#${job.kind}` },
        }),
      );
      return { messageId: 'ses-message-unmarked' };
    });

    // Errors are logged to stderr.
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });

    const result = await handler(eventOf(sqsRecord(job, crypto.randomUUID())));
    expect(result, 'the message is done: failing it would send the email twice').toEqual({
      batchItemFailures: [],
    });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    expect(output.join('')).toContain('"EmailSent"');
    const logged = errors.join('');
    expect(logged).toContain('"level":"error"');
    expect(logged).toContain('email sent but not marked sent');
    expect(logged).toContain('ses-message-unmarked');
    expect(logged).toContain('ConditionalCheckFailedException');
    // Marking sent never writes a mark of its own (one without its claim and TTL).
    expect(await emailMark(job)).toBeUndefined();
  });
});
