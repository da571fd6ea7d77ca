import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevProcess } from '#test/support/dev-process.ts';
import { eventually } from '#test/support/poll.ts';
import { messagesIn } from '#test/support/queues.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * The local stack's persistent state means what a user expects: work the
 * stack had accepted before a SIGTERM (queued emails, webhook deliveries in
 * their retries, uploaded files, the inbox) is all there after a restart.
 */

const POSTS = 20;

let stateDir: string;
let receiver: WebhookReceiver;
const env = {
  // Retries two seconds apart for half a minute: the receiver stays down through the restart.
  WEBHOOK_RETRY_DELAYS_SECONDS: Array(15).fill(2).join(','),
  NODE_EXTRA_CA_CERTS: '',
};

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'dev-restart-'));
  const certificate = inject('receiverCertificate');
  env.NODE_EXTRA_CA_CERTS = join(stateDir, 'receiver-ca.pem');
  await writeFile(env.NODE_EXTRA_CA_CERTS, certificate.cert);
  receiver = await startWebhookReceiver(certificate);
});
afterAll(async () => {
  await receiver.close();
  await rm(stateDir, { recursive: true, force: true });
});

async function start() {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await startDevProcess(
      ['--random-ports', '--state-dir', stateDir, '--log-level', 'warn'],
      { shortLived: true },
    );
  } finally {
    process.env = saved;
  }
}

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

async function mail(mailUrl: string): Promise<Mail[]> {
  return ((await (await fetch(new URL('/store', mailUrl))).json()) as { emails: Mail[] }).emails;
}

/** The tests' one poll, reading every 250 ms for up to `ms`; returns the last value read. */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> =>
  eventually(read, done, { timeoutMs: ms, intervalMs: 250 });

describe('npm run dev keeps its work across a restart', () => {
  it('SIGTERM during a burst with the receiver down: after a restart every acknowledged post has exactly its emails, a delivered webhook and its file', async () => {
    receiver.script([], { status: 503 });
    const first = await start();
    const { baseUrl, apiKeys } = first.info;
    const key = apiKeys.pro;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const owner = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const created = (await (
      await fetch(`${baseUrl}/v1/forms`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Restarted', type: 'custom' }),
      })
    ).json()) as { id: string; key: string };
    const patched = await fetch(`${baseUrl}/v1/forms/${created.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ notifyEmail: owner, autoreplyEnabled: true, allowUploads: true }),
    });
    expect(patched.status).toBe(200);
    const hooked = await fetch(`${baseUrl}/v1/forms/${created.id}/webhook`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(hooked.status).toBe(201);

    // The burst: each post a visitor of its own with a file; the stack stops half way.
    const acknowledged = new Map<string, string>();
    const sends = Array.from({ length: POSTS }, async (_, n) => {
      const visitor = `visitor-${n}-${crypto.randomUUID().slice(0, 6)}@example.com`;
      const { body, contentType } = await multipart((data) => {
        data.append('email', visitor);
        data.append('n', String(n));
        data.append('file', new Blob([`file of post ${n}`], { type: 'text/plain' }), `f${n}.txt`);
      });
      const answer = await submit(created.key, {
        body,
        contentType,
        from: freshVisitor(),
        baseUrl,
        allowServerError: true,
      }).catch(() => undefined);
      if (answer?.status === 200) acknowledged.set(answer.body?.submissionId as string, visitor);
    });
    await until(
      async () => acknowledged.size,
      (size) => size >= POSTS / 2,
      30_000,
    );
    expect(await first.stop('SIGTERM')).toBe(0);
    await Promise.all(sends);
    expect(acknowledged.size).toBeGreaterThanOrEqual(POSTS / 2);

    const second = await start();
    try {
      receiver.script([], { status: 204 });
      const base = second.info.baseUrl;
      // Every acknowledged post's webhook delivered, at the receiver and in the log.
      const delivered = await until(
        async () => {
          const response = await fetch(
            `${base}/v1/forms/${created.id}/webhook/deliveries?limit=100`,
            { headers },
          );
          const { deliveries } = (await response.json()) as {
            deliveries: { submissionId: string; status: string; event: string }[];
          };
          // Each post's submission.created (its files' scan results follow as another event).
          return deliveries.filter((d) => d.event === 'submission.created');
        },
        (deliveries) =>
          [...acknowledged.keys()].every((id) =>
            deliveries.some((d) => d.submissionId === id && d.status === 'delivered'),
          ),
        90_000,
      );
      for (const id of acknowledged.keys()) {
        expect(delivered.find((d) => d.submissionId === id)?.status, `delivery of ${id}`).toBe(
          'delivered',
        );
      }

      // Exactly its emails: one notification to the owner and one auto-reply to the visitor.
      await until(
        () => mail(second.info.mailUrl),
        (emails) =>
          [...acknowledged.values()].every((visitor) =>
            emails.some((email) => email.destination.to.includes(visitor)),
          ),
        90_000,
      );
      // Whatever is still queued is sent once the emails queue is empty (a message leaves it
      // only once handled); then nothing may be doubled.
      const sqs = new SQSClient({
        region: second.info.region,
        endpoint: second.info.endpoints.sqs,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const queued = await until(
        () => messagesIn(sqs, second.info.queues.emails!.url),
        (count) => count === 0,
        90_000,
      );
      expect(queued, 'messages left in the emails queue').toBe(0);
      const settled = await mail(second.info.mailUrl);
      for (const [id, visitor] of acknowledged) {
        const notifications = settled.filter(
          (email) => email.destination.to.includes(owner) && email.body.text?.includes(id),
        );
        const replies = settled.filter((email) => email.destination.to.includes(visitor));
        expect(notifications, `notification of ${id}`).toHaveLength(1);
        expect(replies, `auto-reply to ${visitor}`).toHaveLength(1);
      }

      // Every file link works.
      for (const id of acknowledged.keys()) {
        // Once the file's malware scan is in (a scan cut off by the kill is made at the start).
        const link = await eventually(
          () => fetch(`${base}/v1/forms/${created.id}/submissions/${id}/files/0`, { headers }),
          (response) => response.status !== 409,
          { timeoutMs: 30_000, intervalMs: 200 },
        );
        expect(link.status, `file link of ${id}`).toBe(200);
        const { url } = (await link.json()) as { url: string };
        const file = await fetch(url);
        expect(file.status, `file of ${id}`).toBe(200);
        expect(await file.text()).toMatch(/^file of post \d+$/);
      }
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
  }, 240_000);
});
