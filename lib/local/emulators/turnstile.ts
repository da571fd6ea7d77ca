import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';

export interface TurnstileHandle extends EmulatorHandle {
  /** What the service calls: Cloudflare's siteverify path. */
  verifyUrl: string;
  /** `GET` lists the verify requests received (newest last), for tests. */
  requestsUrl: string;
}

export interface VerifyRequest {
  secret: string;
  response: string;
  remoteip: string | null;
  idempotency_key: string | null;
}

/**
 * A local Turnstile siteverify with Cloudflare's documented test secrets:
 * `1x…` always passes, `2x…` always fails, `3x…` fails as a spent token.
 * One local knob beyond Cloudflare's: the secret `unavailable` answers 503,
 * so the fail-closed path can be exercised. Any other secret fails as
 * `invalid-input-secret`, like Cloudflare with a secret it does not know.
 */
export async function startTurnstile(options: {
  port: number;
  portFlag?: string;
}): Promise<TurnstileHandle> {
  const startedAt = performance.now();
  await assertPortFree(options.port, 'Turnstile verifier', options.portFlag ?? '--turnstile-port');
  const received: VerifyRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res, received).catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${LOOPBACK}:${port}`;
  return {
    endpoint,
    port,
    verifyUrl: `${endpoint}/turnstile/v0/siteverify`,
    requestsUrl: `${endpoint}/requests`,
    startupMs: Math.round(performance.now() - startedAt),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  received: VerifyRequest[],
): Promise<void> {
  if (req.method === 'GET' && req.url === '/requests') {
    return send(res, 200, received);
  }
  if (req.method !== 'POST' || req.url !== '/turnstile/v0/siteverify') {
    return send(res, 404, { message: 'not found' });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const request: VerifyRequest = {
    secret: form.get('secret') ?? '',
    response: form.get('response') ?? '',
    remoteip: form.get('remoteip'),
    idempotency_key: form.get('idempotency_key'),
  };
  received.push(request);
  if (received.length > 1000) received.shift();
  if (request.secret === 'unavailable') return send(res, 503, { message: 'unavailable' });
  const failure = (codes: string[]) => ({ success: false, 'error-codes': codes });
  if (!request.response) return send(res, 200, failure(['missing-input-response']));
  if (request.secret.startsWith('1x')) {
    return send(res, 200, {
      success: true,
      'error-codes': [],
      challenge_ts: new Date().toISOString(),
      hostname: 'localhost',
    });
  }
  if (request.secret.startsWith('2x')) return send(res, 200, failure(['invalid-input-response']));
  if (request.secret.startsWith('3x')) return send(res, 200, failure(['timeout-or-duplicate']));
  return send(res, 200, failure(['invalid-input-secret']));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
