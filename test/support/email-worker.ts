import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { expect, inject, vi } from 'vitest';
import { api } from './api.ts';
import { emailsTo, eventually } from './delivery.ts';
import { newForm } from './forms.ts';
import { localStore } from './store.ts';
import { freshVisitor, submit } from './submit.ts';

/**
 * Driving the real email worker in the test process, against the test stack's table:
 * a job the stack's own worker never sees, the SQS records Lambda would hand over, and
 * the email's claim mark as the store keeps it.
 */

export interface AutoreplyJob {
  job: { formId: string; submissionId: string; kind: 'autoreply' };
  owner: string;
  visitor: string;
}

const unique = () => crypto.randomUUID().slice(0, 8);
export const address = (who: string) => `${who}-${unique()}@example.com`;

/**
 * A real stored submission whose auto-reply no one has sent or claimed: the form has
 * auto-replies off when it is posted, so the fan-out queues only the notification; once
 * that notification arrived (the fan-out has read the form by then) auto-replies are
 * turned on. The worker reads the form as it is when it sends, so the auto-reply job is
 * live for the handler run by the test, and the stack's own worker never sees one.
 */
export async function unsentAutoreply(): Promise<AutoreplyJob> {
  const owner = address('owner');
  const visitor = address('visitor');
  const form = await newForm('pro', {
    notifyEmail: owner,
    autoreplySubject: 'Thanks {{field.name}}',
    // The auto-reply may carry the visitor's answers: the form's owner turned them on.
    autoreplyAnswerPlaceholders: true,
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
export function sqsRecord(body: unknown, messageId: string, receiveCount = 1): SQSRecord {
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

export const eventOf = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

const markKey = (job: AutoreplyJob['job']) => ({
  pk: `FORM#${job.formId}`,
  sk: `EMAIL#${job.submissionId}#${job.kind}`,
});

/** The email's claim mark as stored now (a consistent read), or undefined. */
export async function emailMark(job: AutoreplyJob['job']) {
  const { documents } = await localStore();
  const { Item } = await documents.send(
    new GetCommand({
      TableName: inject('localStack').tableName,
      Key: markKey(job),
      ConsistentRead: true,
    }),
  );
  return Item;
}

/**
 * Writes the email's mark as a worker left it, straight into the table: `claimedAt`
 * alone is a claim whose worker has not reported yet (or never will: it died), with
 * `sentAt` an email SES accepted; `more` adds what the event worker may have written (a
 * fate). The TTL is a month ahead, as the worker writes it.
 */
export async function writeEmailMark(
  job: AutoreplyJob['job'],
  mark: { claimedAt: Date; sentAt?: Date; more?: Record<string, unknown> },
): Promise<void> {
  const { documents } = await localStore();
  await documents.send(
    new PutCommand({
      TableName: inject('localStack').tableName,
      Item: {
        ...markKey(job),
        entity: 'emailMark',
        claimedAt: mark.claimedAt.toISOString(),
        ...(mark.sentAt
          ? { sentAt: mark.sentAt.toISOString(), sesMessageId: `ses-${unique()}` }
          : {}),
        expiresAt: Math.floor(Date.now() / 1000) + 30 * 86_400,
        ...mark.more,
      },
    }),
  );
}

type Handler = typeof import('#events/email-worker.ts').handler;
type SendEmail = typeof import('#aws/email.ts').sendEmail;

/**
 * The real email worker, configured as the stack configures the function, and the
 * `sendEmail` the calling test file replaced with `vi.mock('#aws/email.ts', …)` (a mock
 * applies to the whole file's module graph, this module's imports included).
 */
export async function emailWorkerUnderTest(logLevel: 'info' | 'warn'): Promise<{
  handler: Handler;
  sendEmail: ReturnType<typeof vi.mocked<SendEmail>>;
}> {
  await localStore();
  process.env.EMAIL_SENDER_ADDRESS = 'forms@example.com';
  // The bounds count a mailbox by its keyed hash, as the deployed worker does.
  process.env.KEYED_HASH_SECRET = inject('keyedHashSecret');
  // Were the mock ever bypassed, a real send would still stay on 127.0.0.1.
  process.env.AWS_ENDPOINT_URL_SESV2 = inject('localStack').endpoints.ses;
  process.env.LOG_LEVEL = logLevel;
  const { handler } = await import('#events/email-worker.ts');
  const sendEmail = vi.mocked((await import('#aws/email.ts')).sendEmail);
  return { handler, sendEmail };
}
