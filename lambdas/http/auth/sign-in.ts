import { enqueue } from '#aws/queues.ts';
import { ServiceError } from '#domain/errors.ts';
import { signInInput } from '#domain/member-input.ts';
import { retryAfterSeconds, windowAt } from '#domain/rate-limit.ts';
import type { SignInJob } from '#domain/sign-in-job.ts';
import { SIGN_INS_PER_ADDRESS_PER_HOUR, SIGN_INS_PER_IP_PER_HOUR } from '#domain/sign-in-limits.ts';
import { defineContract } from '#http/contract.ts';
import { anonymousRoute } from '#http/management-route.ts';
import { sourceIpOf } from '#http/request.ts';
import { json } from '#http/respond.ts';
import { admitRequest, signInAddressScope, signInIpScope } from '#store/request-counts.ts';

/**
 * `POST /v1/auth/sign-in { email }`: queues a sign-in email and answers 202
 * the same way whether or not the address is a member (the mailer decides,
 * out of the request), so the answer tells nobody who is one. Limited per
 * address and per IP address (429 with Retry-After).
 */
export const contract = defineContract({
  tag: 'Sign-in',
  body: signInInput,
  answers: [
    {
      status: 202,
      description: 'Queued: a member gets the email; anyone else gets the same answer.',
      body: 'SignInQueued',
    },
  ],
  errors: [],
});

export const handler = anonymousRoute(contract, async ({ event, input }) => {
  const { email } = input.body();
  const now = Date.now();
  const window = windowAt(now, 3600);
  const ip = sourceIpOf(event) ?? 'unknown';
  const [byAddress, byIp] = await Promise.all([
    admitRequest(signInAddressScope(email), window, SIGN_INS_PER_ADDRESS_PER_HOUR),
    admitRequest(signInIpScope(ip), window, SIGN_INS_PER_IP_PER_HOUR),
  ]);
  if (!byAddress || !byIp) {
    throw new ServiceError(429, 'rate_limited', 'Too many sign-in emails asked for; wait a while', {
      headers: { 'retry-after': String(retryAfterSeconds(window, now)) },
    });
  }
  await enqueue('signIns', [
    { email, requestedAt: new Date(now).toISOString(), reason: 'sign_in' } satisfies SignInJob,
  ]);
  return json(202, {
    ok: true,
    message: 'If this address belongs to a member, a sign-in link and code are on their way',
  });
});
