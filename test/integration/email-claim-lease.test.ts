import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { emailsTo, eventually } from '#test/support/delivery.ts';
import {
  emailMark,
  emailWorkerUnderTest,
  eventOf,
  sqsRecord,
  unsentAutoreply,
  writeEmailMark,
} from '#test/support/email-worker.ts';
import { EMAIL_CLAIM_LEASE_SECONDS } from '#workers';

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

let handler: Awaited<ReturnType<typeof emailWorkerUnderTest>>['handler'];
let sendEmail: Awaited<ReturnType<typeof emailWorkerUnderTest>>['sendEmail'];

beforeAll(async () => {
  ({ handler, sendEmail } = await emailWorkerUnderTest('warn'));
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

  it('a stale claim taken over keeps the fate SES reported of the first send (its worker died before marking it sent)', async () => {
    const { job, visitor } = await unsentAutoreply();
    const fateAt = secondsAgo(LEASE).toISOString();
    await writeEmailMark(job, {
      claimedAt: secondsAgo(LEASE + 5),
      more: { fate: 'delivered', fateRank: 3, fateAt },
    });

    expect(await handler(eventOf(sqsRecord(job, crypto.randomUUID(), 2)))).toEqual({
      batchItemFailures: [],
    });
    expect(await emailsTo(visitor)).toHaveLength(1);
    expect(await emailMark(job), 'the fate outlived the takeover').toMatchObject({
      entity: 'emailMark',
      sentAt: expect.any(String),
      fate: 'delivered',
      fateRank: 3,
      fateAt,
    });
  });

  it('a claim without sentAt within the lease (a send in flight) sends nothing and hands the duplicate back to the queue, to look again past the lease', async () => {
    const { job, visitor } = await unsentAutoreply();
    // Just inside the lease: the claimer may still be sending.
    const claimedAt = secondsAgo(LEASE - 10);
    await writeEmailMark(job, { claimedAt });

    // Failed, not deleted (it may be the message's last copy); a batch of one fails whole.
    await expect(handler(eventOf(sqsRecord(job, crypto.randomUUID(), 2)))).rejects.toThrow(
      /All records failed/,
    );
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

  it('a worker that dies between its claim and the send loses nothing: a redelivery within the lease goes back to the queue, the one after it sends exactly once (sendEmail mocked to never answer once, as a Lambda timeout leaves a send)', async () => {
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

    // A delivery while the claim holds sends nothing and goes back to the queue: the send
    // may still be in flight, or (as here) its worker may be gone.
    await expect(handler(eventOf(sqsRecord(job, messageId, 2)))).rejects.toThrow(
      /All records failed/,
    );
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
  it("held deliveries of an auto-reply do not use up its address's hourly allowance: the delivery that takes the claim over still sends", async () => {
    const { job, visitor } = await unsentAutoreply();
    await writeEmailMark(job, { claimedAt: secondsAgo(10) });
    const messageId = crypto.randomUUID();
    for (const receiveCount of [2, 3, 4, 5]) {
      await expect(handler(eventOf(sqsRecord(job, messageId, receiveCount)))).rejects.toThrow(
        /All records failed/,
      );
    }
    // The claimer died: past the lease, the next delivery sends, within the 3 an hour.
    await writeEmailMark(job, { claimedAt: secondsAgo(LEASE + 5) });
    expect(await handler(eventOf(sqsRecord(job, messageId, 6)))).toEqual({
      batchItemFailures: [],
    });
    expect(await emailsTo(visitor)).toHaveLength(1);
  });

  it("an auto-reply over its address's limit is final: marked refused by the limit, never sent by a later delivery", async () => {
    const { job, visitor } = await unsentAutoreply();
    const counts = await import('#store/request-counts.ts');
    const { windowAt } = await import('#domain/rate-limit.ts');
    const { mailboxHash, mailboxOf } = await import('#domain/mailbox.ts');
    const scope = counts.autoReplyRecipientScope(
      mailboxHash(inject('keyedHashSecret'), mailboxOf(visitor)),
    );
    for (let i = 0; i < 3; i++) await counts.countRequest(scope, windowAt(Date.now(), 3600));

    expect(await handler(eventOf(sqsRecord(job, crypto.randomUUID(), 1)))).toEqual({
      batchItemFailures: [],
    });
    const mark = await emailMark(job);
    expect(mark).toMatchObject({ refusedAt: expect.any(String), refusedBy: 'limit' });
    // A later delivery, past the lease (the worker's Date moved on): nothing to send.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(mark!.claimedAt) + (LEASE + 5) * 1000);
    const later = await handler(eventOf(sqsRecord(job, crypto.randomUUID(), 2)));
    vi.useRealTimers();
    expect(later).toEqual({ batchItemFailures: [] });
    expect(sendEmail).not.toHaveBeenCalled();
    expect(await emailsTo(visitor)).toEqual([]);
  });
  it("a release gives back only its own unsent claim: never another delivery's claim, nor a sent mark", async () => {
    const { releaseEmail } = await import('#store/deliveries.ts');
    const { job } = await unsentAutoreply();
    const mine = secondsAgo(5);
    await writeEmailMark(job, { claimedAt: secondsAgo(1) });
    await releaseEmail(job.formId, job.submissionId, job.kind, mine);
    expect(await emailMark(job), "another delivery's claim stays").toBeDefined();
    await writeEmailMark(job, { claimedAt: mine, sentAt: secondsAgo(2) });
    await releaseEmail(job.formId, job.submissionId, job.kind, mine);
    expect(await emailMark(job), 'a sent mark stays').toMatchObject({ sentAt: expect.any(String) });
    await writeEmailMark(job, { claimedAt: mine });
    await releaseEmail(job.formId, job.submissionId, job.kind, mine);
    expect(await emailMark(job), 'its own unsent claim goes').toBeUndefined();
  });
});
