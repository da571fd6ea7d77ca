import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import {
  signWebhook,
  verifyWebhook,
  webhookHeaders,
  webhookMessageId,
} from '#domain/webhook-signature.ts';

// The Standard Webhooks reference vector (TOOLCHAIN.md, "Found 2026-11-23").
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
};
const VECTOR_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const OTHER_SECRET = 'whsec_dGhpcyBpcyBub3QgdGhlIHNhbWUga2V5IGF0IGFsbA==';
const SUBMISSION_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';

function signedNow(body: string, secret = SECRET) {
  const id = webhookMessageId(SUBMISSION_ID);
  const timestamp = Math.floor(Date.now() / 1000);
  return { id, timestamp, headers: webhookHeaders({ secret, id, timestamp, body }) };
}

const verifiers = [
  ['standardwebhooks 1.1.1', (secret: string) => new StandardWebhook(secret)],
  ['svix 2.5.0', (secret: string) => new SvixWebhook(secret)],
] as const;

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference vector', () => {
    expect(signWebhook(vector)).toBe(VECTOR_SIGNATURE);
  });

  it('keys with the base64-decoded secret: the whsec_ prefix is optional', () => {
    expect(signWebhook({ ...vector, secret: vector.secret.slice('whsec_'.length) })).toBe(
      VECTOR_SIGNATURE,
    );
  });

  it('signs id, timestamp and the raw body: changing any one changes the signature', () => {
    expect(signWebhook({ ...vector, id: 'msg_other' })).not.toBe(VECTOR_SIGNATURE);
    expect(signWebhook({ ...vector, timestamp: vector.timestamp + 1 })).not.toBe(VECTOR_SIGNATURE);
    expect(signWebhook({ ...vector, body: '{"test":2432232314}' })).not.toBe(VECTOR_SIGNATURE);
  });

  it('signs the UTF-8 bytes of a non-ASCII body the way the official libraries do', () => {
    const body = '{"name":"Zoë ✓ 日本"}';
    const reference = new StandardWebhook(SECRET).sign(
      'msg_x',
      new Date(vector.timestamp * 1000),
      body,
    );
    expect(signWebhook({ secret: SECRET, id: 'msg_x', timestamp: vector.timestamp, body })).toBe(
      reference,
    );
  });

  it('refuses a timestamp that is not whole Unix seconds', () => {
    expect(() => signWebhook({ ...vector, timestamp: 1614265330.5 })).toThrow(RangeError);
    expect(() => signWebhook({ ...vector, timestamp: -1 })).toThrow(RangeError);
  });

  it.each(verifiers)('%s verifies what signWebhook signs', (_name, make) => {
    const body = JSON.stringify({ type: 'submission.created', data: { fields: { a: 'é' } } });
    const { headers } = signedNow(body);
    expect(() => make(SECRET).verify(body, headers)).not.toThrow();
  });

  it.each(verifiers)('%s rejects a tampered body', (_name, make) => {
    const body = '{"type":"submission.created","data":{"fields":{"amount":"10"}}}';
    const { headers } = signedNow(body);
    expect(() => make(SECRET).verify(body.replace('10', '11'), headers)).toThrow();
    expect(() => make(SECRET).verify(`${body} `, headers)).toThrow();
  });

  it.each(verifiers)('%s rejects a signature made with a wrong secret', (_name, make) => {
    const body = '{"type":"submission.created"}';
    const { headers } = signedNow(body, OTHER_SECRET);
    expect(() => make(SECRET).verify(body, headers)).toThrow();
  });
});

describe('webhookMessageId', () => {
  it('is msg_<submission uuid>, the same on every attempt', () => {
    expect(webhookMessageId(SUBMISSION_ID)).toBe(`msg_${SUBMISSION_ID}`);
    expect(webhookMessageId(SUBMISSION_ID)).toBe(webhookMessageId(SUBMISSION_ID));
  });
});

describe('webhookHeaders and verifyWebhook', () => {
  const now = new Date(vector.timestamp * 1000);

  it('gives the three signing headers', () => {
    expect(webhookHeaders(vector)).toEqual({
      'webhook-id': vector.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR_SIGNATURE,
    });
  });

  it('accepts the vector, and any matching v1 entry among several', () => {
    const base = { ...vector, timestamp: '1614265330', now };
    expect(verifyWebhook({ ...base, signature: VECTOR_SIGNATURE })).toBe(true);
    expect(verifyWebhook({ ...base, signature: `v1,bm9wZQ== v2,abc ${VECTOR_SIGNATURE}` })).toBe(
      true,
    );
  });

  it('rejects a wrong body, a wrong secret, another version and a stale or malformed timestamp', () => {
    const base = { ...vector, timestamp: '1614265330', signature: VECTOR_SIGNATURE, now };
    expect(verifyWebhook({ ...base, body: '{"test": 2432232315}' })).toBe(false);
    expect(verifyWebhook({ ...base, secret: OTHER_SECRET })).toBe(false);
    expect(verifyWebhook({ ...base, signature: VECTOR_SIGNATURE.replace('v1,', 'v2,') })).toBe(
      false,
    );
    expect(verifyWebhook({ ...base, now: new Date((vector.timestamp + 301) * 1000) })).toBe(false);
    expect(verifyWebhook({ ...base, now: new Date((vector.timestamp - 301) * 1000) })).toBe(false);
    expect(verifyWebhook({ ...base, now: new Date((vector.timestamp + 300) * 1000) })).toBe(true);
    expect(verifyWebhook({ ...base, timestamp: '1614265330.0' })).toBe(false);
  });
});
