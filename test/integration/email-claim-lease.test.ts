import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { EMAIL_CLAIM_LEASE_SECONDS } from '../../lambdas/workers.ts';
import { emailsTo, eventually } from '../support/delivery.ts';
import {
  emailMark,
  eventOf,
  sqsRecord,
  unsentAutoreply,
  writeEmailMark,
} from '../support/email-worker.ts';
import { localStore } from '../support/store.ts';

/**
 * An email's claim is a lease, a sent email is final. The real email worker runs here,
 * in the test process, against the test stack's table and the SES emulator: the emails
 * it sends land in the emulator's inbox. `sendEmail` is wrapped in a spy that calls the
 * real one; only the crash test replaces it, for one call, to stop a worker mid-send.
 */
vi.mock('#aws/email.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#aws/email.ts')>();
  return { ...real, sendEmail: vi.fn(real.sendEmail) };
});

type Handler = typeof import('../../lambdas/events/email-worker.ts').handler;
type SendEmail = typeof import('../../lambdas/aws/email.ts').sendEmail;

let handler: Handler;
let sendEmail: ReturnType<typeof vi.mocked<SendEmail>>;

beforeAll(async () => {
  // The worker's configuration, as the stack gives it to the function.
  await localStore();
  process.env.EMAIL_SENDER_ADDRESS = 'forms@example.com';
  process.env.AWS_ENDPOINT_URL_SESV2 = inject('localStack').endpoints.ses;
  process.env.LOG_LEVEL = 'warn';
  ({ handler } = await import('../../lambdas/events/email-worker.ts'));
  sendEmail = vi.mocked((await import('#aws/email.ts')).sendEmail);
});

beforeEach(() => {
  // Back to calling the real sendEmail, with no calls counted.
  sendEmail.mockReset();
});
afterEach(() => {
  vi.useRealTimers();
});

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);
const LEASE = EMAIL_CLAIM_LEASE_SECONDS;

describe('the claim of an email is a lease; a sent email is final', () => {
  it('a claim left unsent past the lease (its worker died) is taken over: the email arrives once and is marked sent', async () => {
    const { job, owner, visitor } = await unsentAutoreply();
    await writeEmailMark(job, { claimedAt: secondsAgo(LEASE + 5) });

    const result = await handler(eventOf(sqsRecord(job, crypto.randomUUID(), 2)));
    expect(result).toEqual({ batchItemFailures: [] });
    const inbox = await emailsTo(visitor);
    expect(inbox, 'the redelivered message sent the email').toHaveLength(1);
    expect(inbox[0]).toMatchObject({ subject: 'Thanks Ada', replyTo: [owner] });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    // The claim is the new worker's now, and final.
    const mark = await emailMark(job);
    expect(mark).toMatchObject({
      entity: 'emailMark',
      sentAt: expect.any(String),
      sesMessageId: inbox[0]!.messageId,
    });
    expect(Date.parse(mark!.claimedAt)).toBeGreaterThan(secondsAgo(60).getTime());
    expect(mark!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
  });

  it('a claim without sentAt within the lease (a send in flight) makes a duplicate delivery skip', async () => {
    const { job, visitor } = await unsentAutoreply();
    // Just inside the lease: the claimer may still be sending.
    const claimedAt = secondsAgo(LEASE - 10);
    await writeEmailMark(job, { claimedAt });

    const result = await handler(eventOf(sqsRecord(job, crypto.randomUUID(), 2)));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sendEmail).not.toHaveBeenCalled();
    expect(await emailsTo(visitor)).toEqual([]);
    const mark = await emailMark(job);
    expect(mark?.claimedAt, 'the claim is left to its worker').toBe(claimedAt.toISOString());
    expect(mark?.sentAt).toBeUndefined();
  });

  it('a mark with sentAt is never sent again, however old its claim', async () => {
    const { job, visitor } = await unsentAutoreply();
    const longAgo = secondsAgo(29 * 86_400);
    await writeEmailMark(job, { claimedAt: longAgo, sentAt: longAgo });
    const before = await emailMark(job);

    for (const receiveCount of [2, 3]) {
      const result = await handler(eventOf(sqsRecord(job, crypto.randomUUID(), receiveCount)));
      expect(result).toEqual({ batchItemFailures: [] });
    }
    expect(sendEmail).not.toHaveBeenCalled();
    expect(await emailsTo(visitor)).toEqual([]);
    expect(await emailMark(job), 'the mark is untouched').toEqual(before);
  });

  it('a worker that dies between its claim and the send loses nothing: a redelivery within the lease skips, the one after it sends exactly once (sendEmail mocked to never answer once, as a Lambda timeout leaves a send)', async () => {
    const { job, visitor } = await unsentAutoreply();
    const messageId = crypto.randomUUID();

    // The first worker claims, calls SES and never hears back; its invocation is abandoned,
    // as Lambda stops it: no release, no sentAt, the message is not deleted.
    sendEmail.mockImplementationOnce(() => new Promise<never>(() => {}));
    void handler(eventOf(sqsRecord(job, messageId, 1)));
    await eventually(
      async () => sendEmail.mock.calls.length,
      (calls) => calls === 1,
      10_000,
    );
    const abandoned = await emailMark(job);
    expect(abandoned).toMatchObject({ entity: 'emailMark', claimedAt: expect.any(String) });
    expect(abandoned?.sentAt).toBeUndefined();

    // A duplicate delivery while the claim holds: skipped, the send may still be in flight.
    const early = await handler(eventOf(sqsRecord(job, messageId, 2)));
    expect(early).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(1);
    expect(await emailMark(job)).toEqual(abandoned);

    // The queue redelivers the message after its visibility timeout, past the lease: the
    // worker's clock (Date only: timers and I/O run as usual) is moved on to then.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(abandoned!.claimedAt) + (LEASE + 1) * 1000);
    const redelivered = await handler(eventOf(sqsRecord(job, messageId, 3)));
    vi.useRealTimers();
    expect(redelivered).toEqual({ batchItemFailures: [] });
    expect(sendEmail).toHaveBeenCalledTimes(2);
    const inbox = await emailsTo(visitor);
    expect(inbox, 'exactly one email reached the inbox').toHaveLength(1);
    expect(await emailMark(job)).toMatchObject({
      sentAt: expect.any(String),
      sesMessageId: inbox[0]!.messageId,
    });
  });
});
