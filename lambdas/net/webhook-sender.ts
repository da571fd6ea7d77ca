import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { getCACertificates } from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { AttemptResult } from '#domain/webhook-delivery.ts';

/**
 * One webhook attempt over `node:https` (docs/delivery.md#sending-rules):
 * POST, `https:` only, TLS verified, redirects never followed (a 3xx is just a response), the whole exchange
 * bounded by `timeoutMs`, and the address guard applied to the addresses
 * actually connected to: the request's own `lookup` resolves the name and
 * refuses before any connection unless every address is public unicast, so
 * a name that re-resolves (DNS rebinding) is checked on the answer used.
 */

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_USER_AGENT = 'service-webhooks/1';
/** How much of the response body is kept (for the delivery log) before the socket is dropped. */
export const RESPONSE_BODY_LIMIT_BYTES = 1024;

export type SendResult = AttemptResult & {
  durationMs: number;
  /** The first 1 KB of the response body, as UTF-8 text. */
  bodyStart?: string;
};

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const RANGE_REASONS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique local address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'an IPv4/IPv6 translation address',
  '6to4': 'a 6to4 tunnel address',
  teredo: 'a Teredo tunnel address',
};

/** IPv6 global unicast is 2000::/3; ipaddr.js calls much else `unicast` (IPv4-compatible ::/96 among it). */
const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

function verdictOf(address: Address, allowLoopback: boolean): AddressVerdict {
  const range = address.range();
  if (range === 'loopback' && allowLoopback) return { allowed: true };
  if (range === 'unicast') {
    if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) {
      return { allowed: false, reason: 'outside the global unicast range 2000::/3' };
    }
    return { allowed: true };
  }
  return { allowed: false, reason: RANGE_REASONS[range] ?? `a special-purpose address (${range})` };
}

/**
 * IPv6 text as the WHATWG URL parser writes it (all hex, zone id dropped).
 * ipaddr.js 2.5.0 reads an IPv4-compatible `::8.8.8.8` as the IPv4-mapped
 * `::ffff:8.8.8.8`, which is not the address the kernel would connect to;
 * the hex spelling `::808:808` it reads right.
 */
function canonicalIpv6(address: string): string {
  const withoutZone = address.split('%', 1)[0]!;
  return new URL(`http://[${withoutZone}]`).hostname.slice(1, -1);
}

/**
 * Whether a webhook may connect to this address: public unicast only (per
 * ipaddr.js `range()`, and for IPv6 inside 2000::/3); `allowLoopback` lets
 * 127/8 and ::1 through as well (the local stack). An IPv4-mapped IPv6
 * address is refused: with the mapped IPv4's own reason when that is not
 * public (so `::ffff:10.0.0.1` reads as private), allowed only when it maps
 * a loopback address and loopback is allowed.
 */
export function addressAllowed(address: string, allowLoopback: boolean): AddressVerdict {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // node:net's strict check first: ipaddr.js alone reads `0x7f.1` or `010.0.0.1` leniently.
  const family = isIP(bare);
  if (family === 0) return { allowed: false, reason: 'not an IP address' };
  let parsed: Address;
  try {
    parsed = ipaddr.parse(family === 6 ? canonicalIpv6(bare) : bare);
  } catch {
    return { allowed: false, reason: 'not an IP address' };
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const mapped = (parsed as ipaddr.IPv6).toIPv4Address();
    const inner = verdictOf(mapped, allowLoopback);
    if (inner.allowed && mapped.range() === 'loopback') return inner;
    return {
      allowed: false,
      reason: inner.allowed
        ? RANGE_REASONS.ipv4Mapped!
        : `${RANGE_REASONS.ipv4Mapped!} of ${mapped.toString()}, ${inner.reason}`,
    };
  }
  return verdictOf(parsed, allowLoopback);
}

const REFUSED = 'ERR_WEBHOOK_REFUSED_ADDRESS';

class RefusedAddressError extends Error {
  readonly code = REFUSED;
}

/**
 * The request's `lookup`: resolves every address through `resolve` and
 * answers only when all of them pass the guard; otherwise it fails the
 * lookup, so Node never opens a socket. Answers in the shape Node asked for
 * (`all: true` from the happy-eyeballs path, a single address otherwise).
 */
function guardedLookup(resolve: LookupFunction, allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answer, family) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const addresses: LookupAddress[] =
        typeof answer === 'string' ? [{ address: answer, family: family ?? isIP(answer) }] : answer;
      if (addresses.length === 0) {
        const empty = Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        callback(empty, '', 0);
        return;
      }
      for (const { address } of addresses) {
        const verdict = addressAllowed(address, allowLoopback);
        if (!verdict.allowed) {
          callback(
            new RefusedAddressError(`${hostname} resolves to ${address}, ${verdict.reason}`),
            '',
            0,
          );
          return;
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function errorMessage(error: unknown): string {
  const inner =
    error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  if (!(inner instanceof Error)) return String(inner);
  const code = (inner as NodeJS.ErrnoException).code;
  return code && !inner.message.includes(code) ? `${code}: ${inner.message}` : inner.message;
}

function hostOf(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export async function sendWebhook(input: {
  url: string;
  body: string;
  /** Added to the request (the worker's webhook-id, -timestamp, -signature); content-type and user-agent are the sender's. */
  headers: Record<string, string>;
  allowLoopback: boolean;
  /** Default 10,000: the receiver has 10 s (docs/delivery.md#sending-rules). */
  timeoutMs?: number;
  /** node's dns.lookup signature; the seam tests stub. Default dns.lookup. */
  lookup?: LookupFunction;
  /** Extra CA for tests, trusted besides the default store (bundled + NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
}): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = input.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  if (!URL.canParse(input.url)) {
    return { kind: 'error', error: 'invalid_url', message: 'not a URL', durationMs: elapsed() };
  }
  const url = new URL(input.url);
  if (url.protocol !== 'https:') {
    return {
      kind: 'error',
      error: 'invalid_url',
      message: `${url.protocol}// is not allowed: webhooks go to https:// only`,
      durationMs: elapsed(),
    };
  }
  const host = hostOf(url);
  // Node connects to an IP literal without calling `lookup`: check it here.
  if (isIP(host) !== 0) {
    const verdict = addressAllowed(host, input.allowLoopback);
    if (!verdict.allowed) {
      return {
        kind: 'error',
        error: 'refused_address',
        message: `${host} is ${verdict.reason}`,
        durationMs: elapsed(),
      };
    }
  }

  const headers: Record<string, string> = {
    ...input.headers,
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'content-length': String(Buffer.byteLength(input.body)),
  };

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    const finish = (result: AttemptResult, bodyStart?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const sent: SendResult = { ...result, durationMs: elapsed() };
      if (bodyStart !== undefined) sent.bodyStart = bodyStart;
      resolve(sent);
    };
    const finishResponse = () => {
      if (!response) return;
      const retryAfter = response.headers['retry-after'];
      const result: AttemptResult = { kind: 'response', status: response.statusCode ?? 0 };
      if (typeof retryAfter === 'string') result.retryAfter = retryAfter;
      const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES);
      finish(result, new TextDecoder().decode(body));
      req.destroy();
    };

    // The deadline covers DNS, connect, TLS, the response headers and the
    // first 1 KB of body. Once the status has arrived it is the answer: a
    // body still trickling in at the deadline is cut there rather than
    // turning a received 2xx into a timeout (and a duplicate delivery).
    const timer = setTimeout(() => {
      if (response) {
        finishResponse();
        return;
      }
      finish({ kind: 'error', error: 'timeout', message: `no response within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);

    const req = request({
      protocol: 'https:',
      hostname: host,
      port: url.port === '' ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers,
      auth:
        url.username || url.password
          ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
          : undefined,
      agent: false,
      lookup: guardedLookup(input.lookup ?? (dnsLookup as LookupFunction), input.allowLoopback),
      rejectUnauthorized: true,
      ca: input.ca === undefined ? undefined : [...getCACertificates('default'), input.ca],
    });

    req.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received >= RESPONSE_BODY_LIMIT_BYTES) finishResponse();
      });
      res.on('end', finishResponse);
      res.on('error', finishResponse);
      // Closed before its end (the peer reset mid-body): the status stands.
      res.on('close', finishResponse);
    });
    req.on('error', (error) => {
      if (response) {
        finishResponse();
        return;
      }
      if ((error as NodeJS.ErrnoException).code === REFUSED) {
        finish({ kind: 'error', error: 'refused_address', message: error.message });
        return;
      }
      finish({ kind: 'error', error: 'network', message: errorMessage(error) });
    });
    req.end(input.body);
  });
}
