import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, type SendResult, sendWebhook } from '#net/webhook-sender.ts';

/**
 * Real HTTPS servers on 127.0.0.1 with a certificate made here. The URLs
 * name `hooks.test` (a reserved name that resolves nowhere), answered by a
 * stubbed lookup; no test sends traffic anywhere but 127.0.0.1. The guard
 * tests refuse loopback first (where a broken guard could only reach the
 * local server, which counts connections), and only once that is proven do
 * they hand the sender other addresses.
 */

const HOST = 'hooks.test';
let key: string;
let cert: string;

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  port: number;
  received: Received[];
  connections: () => number;
  close: () => Promise<void>;
}

const servers: TestServer[] = [];

async function startServer(
  handler: Handler,
  certificate = { key: '', cert: '' },
): Promise<TestServer> {
  const received: Received[] = [];
  let connections = 0;
  const server: Server = createServer(
    { key: certificate.key || key, cert: certificate.cert || cert },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          body: Buffer.concat(chunks),
        });
        handler(req, res);
      });
    },
  );
  server.on('connection', () => {
    connections++;
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const running: TestServer = {
    port: address.port,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(running);
  return running;
}

/** dns.lookup's shape, answering from a table; unknown names fail as getaddrinfo would. */
function stubLookup(answers: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    process.nextTick(() => {
      if (!addresses) {
        const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
          code: 'ENOTFOUND',
        });
        callback(error, '', 0);
        return;
      }
      const list = addresses.map((address) => ({ address, family: isIP(address) }));
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
  return { lookup, calls };
}

const BODY = '{"type":"submission.created","data":{"fields":{"name":"Zoë ✓ 日本","x":"a  b"}}}';
const SIGNING = {
  'webhook-id': 'msg_0192f3a4-5b6c-7d8e-9f01-23456789abcd',
  'webhook-timestamp': '1763892000',
  'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

function send(port: number, overrides: Partial<Parameters<typeof sendWebhook>[0]> = {}) {
  const { lookup } = stubLookup({ [HOST]: ['127.0.0.1'] });
  return sendWebhook({
    url: `https://${HOST}:${port}/hooks/forms?x=1`,
    body: BODY,
    headers: SIGNING,
    allowLoopback: true,
    lookup,
    ca: cert,
    ...overrides,
  });
}

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: HOST }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: HOST },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  key = pems.private;
  cert = pems.cert;
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('sendWebhook: the exchange', () => {
  it('delivers a 2xx: one POST with the exact headers and the raw body bytes', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const result = await send(server.port);
    expect(result).toMatchObject({ kind: 'response', status: 200, bodyStart: 'ok' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/hooks/forms?x=1');
    expect(request!.body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
    expect(request!.headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'service-webhooks/1',
      'content-length': String(Buffer.byteLength(BODY)),
      'webhook-id': SIGNING['webhook-id'],
      'webhook-timestamp': SIGNING['webhook-timestamp'],
      'webhook-signature': SIGNING['webhook-signature'],
      host: `${HOST}:${server.port}`,
      connection: 'close',
    });
  });

  it('keeps its own content-type and user-agent whatever the caller passes', async () => {
    const server = await startServer((_req, res) => res.end());
    await send(server.port, {
      headers: { ...SIGNING, 'Content-Type': 'text/plain', 'User-Agent': 'other' },
    });
    const [request] = server.received;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toBe('service-webhooks/1');
    const names = request!.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    expect(names.filter((n) => n === 'content-type')).toHaveLength(1);
    expect(names.filter((n) => n === 'user-agent')).toHaveLength(1);
  });

  it.each([
    [500, undefined],
    [503, '120'],
    [429, 'Wed, 21 Oct 2026 07:28:00 GMT'],
    [204, undefined],
    [404, undefined],
  ])('returns status %i (Retry-After %s) as a response', async (status, retryAfter) => {
    const server = await startServer((_req, res) => {
      if (retryAfter) res.setHeader('retry-after', retryAfter);
      res.statusCode = status;
      res.end();
    });
    const result = await send(server.port);
    expect(result.kind).toBe('response');
    expect(result).toMatchObject({ status, bodyStart: '' });
    if (result.kind === 'response') expect(result.retryAfter).toBe(retryAfter);
  });

  it('returns a 302 as a response and never requests its Location', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/elsewhere') {
        res.end('followed');
        return;
      }
      res.writeHead(302, { location: `https://${HOST}:${server.port}/elsewhere` });
      res.end('moved');
    });
    const result = await send(server.port);
    expect(result).toMatchObject({ kind: 'response', status: 302, bodyStart: 'moved' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.received.map((r) => r.url)).toEqual(['/hooks/forms?x=1']);
    expect(server.connections()).toBe(1);
  });

  it('times out a server that never answers within timeoutMs', async () => {
    const server = await startServer(() => {});
    const result = await send(server.port, { timeoutMs: 300 });
    expect(result).toMatchObject({
      kind: 'error',
      error: 'timeout',
      message: 'no response within 300 ms',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(3000);
  });

  it('counts DNS in the deadline: a lookup that never answers times out', async () => {
    const hanging: LookupFunction = () => {};
    const result = await send(1, { lookup: hanging, timeoutMs: 300 });
    expect(result).toMatchObject({ kind: 'error', error: 'timeout' });
  });

  it('keeps a status that arrived when the body stalls past the deadline', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const result = await send(server.port, { timeoutMs: 300 });
    expect(result).toMatchObject({ kind: 'response', status: 200, bodyStart: 'partial' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('reads only the first 1 KB of a long body and drops the connection', async () => {
    let closedEarly = false;
    const server = await startServer((_req, res) => {
      res.on('close', () => {
        closedEarly = !res.writableFinished;
      });
      res.writeHead(500);
      res.write('a'.repeat(64 * 1024));
      // Never ended: the sender must not wait for the rest.
    });
    const result = await send(server.port, { timeoutMs: 5000 });
    expect(result).toMatchObject({ kind: 'response', status: 500 });
    expect(result.bodyStart).toBe('a'.repeat(1024));
    expect(result.durationMs).toBeLessThan(2000);
    await expect.poll(() => closedEarly).toBe(true);
  });

  it('cuts the body at 1 KB of bytes, as text', async () => {
    const server = await startServer((_req, res) => res.end('é'.repeat(2000)));
    const result = await send(server.port);
    expect(Buffer.byteLength(result.bodyStart ?? '')).toBeLessThanOrEqual(1024 + 2);
    expect(result.bodyStart?.startsWith('é'.repeat(511))).toBe(true);
  });

  it('reports a connection reset as a network error', async () => {
    const server = await startServer((req) => req.socket.destroy());
    const result = await send(server.port);
    expect(result).toMatchObject({ kind: 'error', error: 'network' });
    expect((result as SendResult & { message: string }).message).toMatch(
      /ECONNRESET|socket hang up/,
    );
  });

  it('reports a refused connection as a network error', async () => {
    const server = await startServer(() => {});
    const port = server.port;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const result = await send(port);
    expect(result).toMatchObject({ kind: 'error', error: 'network' });
    expect((result as { message: string }).message).toMatch(/ECONNREFUSED/);
  });

  it('verifies TLS: a self-signed certificate without ca is a network error', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const result = await send(server.port, { ca: undefined });
    expect(result).toMatchObject({ kind: 'error', error: 'network' });
    expect((result as { message: string }).message).toMatch(/self-signed|certificate/i);
    expect(server.received).toHaveLength(0);
  });

  it('verifies the host name against the certificate', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const { lookup } = stubLookup({ 'other.test': ['127.0.0.1'] });
    const result = await send(server.port, {
      url: `https://other.test:${server.port}/`,
      lookup,
    });
    expect(result).toMatchObject({ kind: 'error', error: 'network' });
    expect((result as { message: string }).message).toMatch(/altnames|Hostname/i);
    expect(server.received).toHaveLength(0);
  });

  it('reports a name that does not resolve as a network error', async () => {
    const { lookup } = stubLookup({});
    const result = await send(1, { lookup });
    expect(result).toMatchObject({ kind: 'error', error: 'network' });
    expect((result as { message: string }).message).toMatch(/ENOTFOUND/);
  });

  it.each([
    ['http://hooks.test/x', 'http:// is not allowed: webhooks go to https:// only'],
    ['ftp://hooks.test/x', 'ftp:// is not allowed: webhooks go to https:// only'],
    ['not a url', 'not a URL'],
  ])('refuses %s as invalid_url without a lookup', async (url, message) => {
    const stub = stubLookup({ [HOST]: ['127.0.0.1'] });
    const result = await send(1, { url, lookup: stub.lookup });
    expect(result).toMatchObject({ kind: 'error', error: 'invalid_url', message });
    expect(stub.calls).toEqual([]);
  });

  it('connects to a loopback IP literal when loopback is allowed, without a lookup', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const stub = stubLookup({});
    const result = await send(server.port, {
      url: `https://127.0.0.1:${server.port}/`,
      lookup: stub.lookup,
    });
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(stub.calls).toEqual([]);
  });
});

describe('sendWebhook: the address guard', () => {
  const proven = { lookupGuard: false, everyAnswer: false, literalGuard: false };

  it('refuses 127.0.0.1 when loopback is not allowed, before any connection', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const stub = stubLookup({ [HOST]: ['127.0.0.1'] });
    const result = await send(server.port, { allowLoopback: false, lookup: stub.lookup });
    expect(result).toMatchObject({
      kind: 'error',
      error: 'refused_address',
      message: 'hooks.test resolves to 127.0.0.1, a loopback address',
    });
    expect(stub.calls).toEqual([HOST]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections()).toBe(0);
    proven.lookupGuard = true;
  });

  it('allows 127.0.0.1 when loopback is allowed (the local stack)', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const result = await send(server.port, { allowLoopback: true });
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(server.connections()).toBe(1);
  });

  it('refuses when any one answer is refused, even if the first would pass', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const stub = stubLookup({ [HOST]: ['127.0.0.1', '10.0.0.5'] });
    const result = await send(server.port, { allowLoopback: true, lookup: stub.lookup });
    expect(result).toMatchObject({
      kind: 'error',
      error: 'refused_address',
      message: 'hooks.test resolves to 10.0.0.5, a private address',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections()).toBe(0);
    proven.everyAnswer = true;
  });

  it.each([
    ['10.0.0.5', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['fd00::1', 'a unique local address'],
    ['::ffff:10.0.0.1', 'an IPv4-mapped address of 10.0.0.1, a private address'],
    ['0.0.0.0', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['192.168.0.1', 'a private address'],
    ['fe80::1', 'a link-local address'],
    ['::', 'an unspecified address'],
  ])('refuses a name resolving to %s (%s) without connecting', async (address, reason) => {
    // Preconditions that keep this test off the network if the guard were broken.
    expect(proven.lookupGuard && proven.everyAnswer).toBe(true);
    expect(addressAllowed(address, false).allowed).toBe(false);
    const server = await startServer((_req, res) => res.end('ok'));
    const stub = stubLookup({ [HOST]: [address] });
    const result = await send(server.port, { allowLoopback: false, lookup: stub.lookup });
    expect(result).toMatchObject({
      kind: 'error',
      error: 'refused_address',
      message: `hooks.test resolves to ${address}, ${reason}`,
    });
    expect(stub.calls).toEqual([HOST]);
    expect(result.durationMs).toBeLessThan(1000);
    expect(server.connections()).toBe(0);
  });

  it('refuses the IP literal 127.0.0.1 when loopback is not allowed, without a lookup', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const stub = stubLookup({});
    const result = await send(server.port, {
      url: `https://127.0.0.1:${server.port}/`,
      allowLoopback: false,
      lookup: stub.lookup,
    });
    expect(result).toMatchObject({
      kind: 'error',
      error: 'refused_address',
      message: '127.0.0.1 is a loopback address',
    });
    expect(stub.calls).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.connections()).toBe(0);
    proven.literalGuard = true;
  });

  it.each([
    ['https://10.0.0.5/', '10.0.0.5 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['https://[fd00::1]/', 'fd00::1 is a unique local address'],
    [
      'https://[::ffff:10.0.0.1]/',
      '::ffff:a00:1 is an IPv4-mapped address of 10.0.0.1, a private address',
    ],
    ['https://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['https://0.0.0.0/', '0.0.0.0 is an unspecified address'],
    ['https://[::1]/', '::1 is a loopback address'],
  ])('refuses the IP-literal URL %s without any lookup', async (url, message) => {
    expect(proven.literalGuard).toBe(true);
    const host = new URL(url).hostname;
    expect(addressAllowed(host, false).allowed).toBe(false);
    const stub = stubLookup({});
    const result = await send(1, { url, allowLoopback: false, lookup: stub.lookup });
    expect(result).toMatchObject({ kind: 'error', error: 'refused_address', message });
    expect(stub.calls).toEqual([]);
  });
});
