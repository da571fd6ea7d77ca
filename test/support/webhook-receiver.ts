import { createServer, type Server } from 'node:https';
import { type LoopbackCertificate, loopbackCertificate } from '#lib/local/loopback-certificate.ts';

/**
 * A real HTTPS webhook receiver on 127.0.0.1 for tests and benches: it
 * records every request (headers and raw body) and answers as its script
 * says, request by request. The certificate is self-signed for `localhost`
 * and 127.0.0.1; the local stack trusts it through NODE_EXTRA_CA_CERTS.
 */

export interface ReceivedHook {
  at: number;
  /** When the exchange ended (answered, or the sender gave up on a hang); undefined while open. */
  endedAt?: number;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, as the signature covers it. */
  body: string;
}

type Reply = { status: number; headers?: Record<string, string>; body?: string };

/**
 * How to answer one request: a status (with headers), hang for ever, reset
 * the connection, or hold the request until `until` gives the reply (a
 * test then acts while the sender waits, and releases it when it wants).
 */
export type Answer = Reply | 'hang' | 'reset' | { until: Promise<Reply> };

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedHook[];
  /** Answers for the coming requests, in order; later ones get `fallback`. */
  script(answers: Answer[], fallback?: Answer): void;
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** The receivers' certificate: the local stack's own loopback one (its own CA). */
export type Certificate = LoopbackCertificate;
export const localCertificate = loopbackCertificate;

export async function startWebhookReceiver(
  certificate: Certificate,
  path = '/hook',
): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  let queue: Answer[] = [];
  let fallback: Answer = { status: 204 };
  const waiters: Array<() => void> = [];
  const server: Server = createServer(certificate, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hook: ReceivedHook = {
        at: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      res.on('close', () => {
        hook.endedAt = Date.now();
      });
      received.push(hook);
      for (const wake of waiters.splice(0)) wake();
      const answer = queue.shift() ?? fallback;
      if (answer === 'hang') return;
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      const reply = (given: Reply) => {
        if (!res.destroyed) res.writeHead(given.status, given.headers).end(given.body ?? '');
      };
      if ('until' in answer) void answer.until.then(reply);
      else reply(answer);
    });
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no port');
  return {
    url: `https://127.0.0.1:${address.port}${path}`,
    port: address.port,
    received,
    script(answers, next = { status: 204 }) {
      queue = [...answers];
      fallback = next;
    },
    async waitFor(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(`the receiver got ${received.length} of ${count} requests in time`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 250));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
