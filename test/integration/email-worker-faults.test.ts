import { MessageRejected, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import type { EmailMessage } from '../../lambdas/domain/email-messages.ts';
import { api } from '../support/api.ts';
import { emailsTo, eventually } from '../support/delivery.ts';
import { newForm } from '../support/forms.ts';
import { localStore } from '../support/store.ts';
import { freshVisitor, submit } from '../support/submit.ts';

/**
 * SES faults the emulator cannot produce (it accepts every well-formed message): the real
 * email worker runs here, in the test process, against the test stack's table, with only
 * `sendEmail` of `#aws/email.ts` replaced by a mock. `classifySendError` stays the real one.
 */
vi.mock('#aws/email.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#aws/email.ts')>()),
  sendEmail: vi.fn(),
}));

type Handler = typeof import('../../lambdas/events/email-worker.ts').handler;
type SendEmail = typeof import('../../lambdas/aws/email.ts').sendEmail;

let handler: Handler;
let sendEmail: ReturnType<typeof vi.mocked<SendEmail>>;
let documents: Awaited<ReturnType<typeof localStore>>['documents'];

beforeAll(async () => {
  // The worker's configuration, as the stack gives it to the function.
  ({ documents } = await localStore());
  const info = inject('localStack');
  process.env.EMAIL_SENDER_ADDRESS = 'forms@example.com';
  // Were the mock ever bypassed, a real send would still stay on 127.0.0.1.
  process.env.AWS_ENDPOINT_URL_SESV2 = info.endpoints.ses;
  process.env.LOG_LEVEL = 'info';
  ({ handler } = await import('../../lambdas/events/email-worker.ts'));
  sendEmail = vi.mocked((await import('#aws/email.ts')).sendEmail);
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
});

const unique = () => crypto.randomUUID().slice(0, 8);
const address = (who: string) => `${who}-${unique()}@example.com`;

interface AutoreplyJob {
  job: { formId: string; submissionId: string; kind: 'autoreply' };
  owner: string;
  visitor: string;
}

/**
 * A real stored submission whose auto-reply no one has sent or claimed: the form has
 * auto-replies off when it is posted, so the fan-out queues only the notification; once
 * that notification arrived (the fan-out has read the form by then) auto-replies are
 * turned on. The worker reads the form as it is when it sends, so the auto-reply job is
 * live for the handler run here, and the stack's own worker never sees one.
 */
async function unsentAutoreply(): Promise<AutoreplyJob> {
  const owner = address('owner');
  const visitor = address('visitor');
  const form = await newForm('pro', {
    notifyEmail: owner,
    autoreplySubject: 'Thanks {{field.name}}',
    fields: [
      { id: 'name', type: 'text' },
      { id: 'email', type: 'email' },
    ],
  });
  const posted = await submit(form.key, {
    json: { name: 'Ada', email: visitor },
    from: freshVisitor(),
  });
  expect(posted.status, posted.text).toBe(200);
  const submissionId = posted.body?.submissionId as string;
  const notified = await eventually(
    () => emailsTo(owner),
    (list) => list.length > 0,
  );
  expect(notified, 'the stack notified the owner').toHaveLength(1);
  const enabled = await api('PATCH', `/v1/forms/${form.id}`, {
    key: form.apiKey,
    body: { autoreplyEnabled: true },
  });
  expect(enabled.status, enabled.text).toBe(200);
  return { job: { formId: form.id, submissionId, kind: 'autoreply' }, owner, visitor };
}

/** One SQS record as Lambda hands it over; `receiveCount` as the queue counts deliveries. */
function sqsRecord(body: unknown, messageId: string, receiveCount = 1): SQSRecord {
  const now = String(Date.now());
  return {
    messageId,
    receiptHandle: `receipt-${messageId}-${receiveCount}`,
    body: JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${inject('localStack').region}:000000000000:emails`,
    awsRegion: inject('localStack').region,
  };
}

const eventOf = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

async function emailMark(job: AutoreplyJob['job']) {
  const { Item } = await documents.send(
    new GetCommand({
      TableName: inject('localStack').tableName,
      Key: { pk: `FORM#${job.formId}`, sk: `EMAIL#${job.submissionId}#${job.kind}` },
    }),
  );
  return Item;
}

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
    // The claim is kept.
    expect(await emailMark(job)).toMatchObject({ entity: 'emailMark' });

    // The same message delivered again (SQS is at least once): nothing is sent.
    const again = await handler(eventOf(sqsRecord(job, messageId, 2)));
    expect(again).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    expect(await emailsTo(visitor)).toEqual([]);
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
    const gone = { ...job, submissionId: `gone-${unique()}` };
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
    expect(await emailMark(job)).toMatchObject({ entity: 'emailMark' });

    // And once more (a duplicate): still sent exactly once.
    const duplicate = await handler(eventOf(sqsRecord(job, messageId, 3)));
    expect(duplicate).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(2);
    expect(sendEmail.mock.settledResults.map((result) => result.type)).toEqual([
      'rejected',
      'fulfilled',
    ]);
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
});
