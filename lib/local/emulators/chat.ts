import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Socket } from 'node:net';
import { type ChatRefusal, discordRefusal, pingingMentions, slackRefusal } from './chat-checks.ts';
import { type ChatAddresses, type ChatReceived, chatPage } from './chat-page.ts';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';

/**
 * Local stand-ins for a Slack incoming webhook and a Discord execute-webhook
 * call, on one port of 127.0.0.1 (docs/integrations.md#local-receivers).
 * The webhooks are HTTPS, as the service only sends to `https://` addresses;
 * the page listing what they got is plain HTTP on the same port (a TLS
 * handshake's first byte tells the two apart), so a browser opens it
 * without a certificate warning.
 */

export interface ChatReceiversOptions {
  /** 0 picks a free port. */
  port: number;
  portFlag?: string;
  /** The HTTPS certificate and key (PEM) of 127.0.0.1. */
  certificate: { cert: string; key: string };
  /** A JSON-lines file that keeps what was received across restarts; in memory when absent. */
  recordFile?: string;
}

export interface ChatReceiversHandle extends EmulatorHandle, ChatAddresses {
  /** The page listing every message received (plain HTTP). */
  pageUrl: string;
  /** `GET`: `{ messages }` as JSON, oldest first; `DELETE` empties it. */
  messagesUrl: string;
}

/** Messages kept (the oldest go first). */
const KEPT = 500;
/** A body longer than this is answered 413 (Slack and Discord take far less). */
const BODY_LIMIT = 1024 * 1024;
/** A kept body is cut here. */
const KEPT_BODY = 64 * 1024;
const TLS_HANDSHAKE = 0x16;

export async function startChatReceivers(
  options: ChatReceiversOptions,
): Promise<ChatReceiversHandle> {
  const startedAt = performance.now();
  await assertPortFree(
    options.port,
    'Slack and Discord receivers',
    options.portFlag ?? '--chat-port',
  );
  const received = loadRecord(options.recordFile);
  let addresses: ChatAddresses = { slackUrl: '', discordUrl: '' };

  const onRequest = (secure: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res, secure).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  const plain = createHttpServer(onRequest(false));
  const secure = createHttpsServer(options.certificate, onRequest(true));
  secure.on('tlsClientError', () => {});
  const sockets = new Set<Socket>();
  // One port for both: the first byte of a connection says whether it is TLS.
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('chat receivers have no port');
  const port = address.port;
  const endpoint = `https://${LOOPBACK}:${port}`;
  addresses = {
    // Shaped like the real addresses, so a pasted one reads like what Slack and Discord give.
    slackUrl: `${endpoint}/slack/services/T0LOCAL00/B0LOCAL00/local-receiver`,
    discordUrl: `${endpoint}/discord/api/webhooks/100000000000000001/local-receiver`,
  };

  function keep(entry: Omit<ChatReceived, 'id' | 'receivedAt' | 'mentions'>): void {
    const kept: ChatReceived = {
      id: (received.at(-1)?.id ?? 0) + 1,
      receivedAt: new Date().toISOString(),
      ...entry,
      mentions: pingingMentions(entry.service, entry.body),
      body: entry.body.slice(0, KEPT_BODY),
    };
    received.push(kept);
    if (received.length > KEPT) received.splice(0, received.length - KEPT);
    if (options.recordFile) appendFileSync(options.recordFile, `${JSON.stringify(kept)}\n`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, tls: boolean): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const service = url.pathname.startsWith('/slack/services/')
      ? 'slack'
      : url.pathname.startsWith('/discord/api/webhooks/')
        ? 'discord'
        : undefined;
    if (req.method === 'GET' && url.pathname === '/') {
      return send(res, 200, 'text/html; charset=utf-8', chatPage(received, addresses));
    }
    if (url.pathname === '/messages' && req.method === 'GET') {
      return send(res, 200, 'application/json', JSON.stringify({ messages: received }));
    }
    if (url.pathname === '/messages' && req.method === 'DELETE') {
      received.length = 0;
      if (options.recordFile) writeFileSync(options.recordFile, '');
      return send(res, 204, 'text/plain', '');
    }
    if (!service || req.method !== 'POST') return send(res, 404, 'text/plain', 'not found');
    // The services take HTTPS only; a plain post is what a wrong address would send.
    if (!tls) return send(res, 400, 'text/plain', 'use https:// for the webhook addresses');
    const body = await readBody(req);
    if (body === undefined) {
      keep({ service, path: url.pathname, status: 413, refused: 'body over 1 MB', body: '' });
      return send(res, 413, 'text/plain', 'request entity too large');
    }
    const answer = failureAsked(service, url.pathname) ?? refusalOf(service, body);
    if (answer) {
      keep({ service, path: url.pathname, status: answer.status, refused: answer.reason, body });
      return send(res, answer.status, answer.contentType, answer.body, answer.headers);
    }
    if (service === 'slack') {
      keep({ service, path: url.pathname, status: 200, refused: null, body });
      return send(res, 200, 'text/html', 'ok');
    }
    // `?wait=true` asks Discord for the message it created (200) instead of 204.
    if (url.searchParams.get('wait') === 'true') {
      keep({ service, path: url.pathname, status: 200, refused: null, body });
      const created = { id: String(Date.now()), type: 0, ...JSON.parse(body) };
      return send(res, 200, 'application/json', JSON.stringify(created));
    }
    keep({ service, path: url.pathname, status: 204, refused: null, body });
    return send(res, 204, 'text/plain', '');
  }

  return {
    endpoint,
    port,
    ...addresses,
    pageUrl: `http://${LOOPBACK}:${port}/`,
    messagesUrl: `http://${LOOPBACK}:${port}/messages`,
    startupMs: Math.round(performance.now() - startedAt),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function refusalOf(service: 'slack' | 'discord', body: string): ChatRefusal | undefined {
  return service === 'slack' ? slackRefusal(body) : discordRefusal(body);
}

/**
 * A webhook whose last path segment is `fail-<status>` answers that status
 * as the service would, so a failing integration can be seen locally: 429
 * with `Retry-After: 1`, 404 (a deleted webhook), 403 or 401 (a revoked
 * token), 5xx.
 */
function failureAsked(service: 'slack' | 'discord', path: string): ChatRefusal | undefined {
  const match = /\/fail-(\d{3})$/.exec(path);
  const status = Number(match?.[1]);
  if (!match || status < 400 || status > 599) return undefined;
  const reason = `asked to fail with ${status}`;
  const headers = status === 429 ? { 'retry-after': '1' } : undefined;
  if (service === 'slack') {
    const words: Record<number, string> = {
      403: 'invalid_token',
      404: 'no_service',
      410: 'channel_is_archived',
      429: 'rate_limited',
    };
    return {
      status,
      body: words[status] ?? 'internal_error',
      contentType: 'text/html',
      reason,
      headers,
    };
  }
  const errors: Record<number, object> = {
    401: { message: 'Invalid Webhook Token', code: 50027 },
    404: { message: 'Unknown Webhook', code: 10015 },
    429: { message: 'You are being rate limited.', retry_after: 1, global: false },
  };
  const error = errors[status] ?? { message: 'Internal Server Error', code: 0 };
  return { status, body: JSON.stringify(error), contentType: 'application/json', reason, headers };
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, status === 204 ? headers : { 'content-type': contentType, ...headers });
  res.end(status === 204 ? undefined : body);
}

function loadRecord(file: string | undefined): ChatReceived[] {
  if (!file || !existsSync(file)) return [];
  const kept: ChatReceived[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      kept.push(JSON.parse(line) as ChatReceived);
    } catch {
      // A line cut by a crash mid-write: the rest is still good.
    }
  }
  if (kept.length <= KEPT) return kept;
  // The file only grows while the stack runs: each start brings it back to what is kept.
  const newest = kept.slice(-KEPT);
  writeFileSync(file, newest.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  return newest;
}
