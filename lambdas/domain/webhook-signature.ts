import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (docs/delivery.md#signing): HMAC-SHA256 of
 * `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the secret's
 * bytes (the `whsec_` prefix removed, the rest base64-decoded), written as
 * `v1,<base64 digest>`. node:crypto is not AWS, so this stays pure domain.
 */

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_VERSION = 'v1';
/** A receiver's webhook timestamp tolerance (docs/delivery.md#signing). */
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = 300;

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

function digest(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
}

/** `v1,<base64 HMAC-SHA256>`; `timestamp` is Unix time in whole seconds. */
export function signWebhook(input: {
  secret: string;
  id: string;
  timestamp: number;
  body: string;
}): string {
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new RangeError(`webhook timestamp must be whole Unix seconds, got ${input.timestamp}`);
  }
  return `${SIGNATURE_VERSION},${digest(input.secret, input.id, input.timestamp, input.body)}`;
}

/**
 * The `webhook-id` of a submission's delivery: derived from the submission
 * (a UUID), so every attempt and a re-run fan-out carry the same id and
 * receivers can de-duplicate (docs/delivery.md#webhook-requests).
 */
export function webhookMessageId(submissionId: string): string {
  return `msg_${submissionId}`;
}

/** The three signing headers of one attempt (the sender adds content-type and user-agent). */
export function webhookHeaders(input: {
  secret: string;
  id: string;
  timestamp: number;
  body: string;
}): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signWebhook(input),
  };
}

/**
 * The receiver's side of the contract, for tests and local receivers: any
 * space-separated `v1,` entry matching (constant-time) and a timestamp within
 * the tolerance of `now`.
 */
export function verifyWebhook(input: {
  secret: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  now: Date;
  toleranceSeconds?: number;
}): boolean {
  if (!/^\d{1,15}$/.test(input.timestamp)) return false;
  const timestamp = Number(input.timestamp);
  const tolerance = input.toleranceSeconds ?? WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS;
  if (Math.abs(input.now.getTime() / 1000 - timestamp) > tolerance) return false;
  const expected = Buffer.from(digest(input.secret, input.id, timestamp, input.body));
  return input.signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== SIGNATURE_VERSION || value === undefined) return false;
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
