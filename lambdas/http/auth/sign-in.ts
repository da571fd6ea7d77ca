import { enqueue } from '#aws/queues.ts';
import { ServiceError } from '#domain/errors.ts';
import { signInInput } from '#domain/member-input.ts';
import type { SignInJob } from '#domain/sign-in-job.ts';
import { defineContract } from '#http/contract.ts';
import { anonymousRoute } from '#http/management-route.ts';
import { sourceIpOf } from '#http/request.ts';
import { json } from '#http/respond.ts';
import { admitSignInEmail } from '#store/sign-in-counts.ts';

/**
 * `POST /v1/auth/sign-in { email }`: queues a sign-in email and answers 202
 * the same way whether or not the address is a member (the mailer decides,
 * out of the request), so the answer tells nobody who is one. Limited per
 * requester, per address and requester, and per address
 * (docs/people.md#sign-in-bounds; 429 with Retry-After).
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
  const admission = await admitSignInEmail(email, sourceIpOf(event), now, { anyAddress: true });
  if (!admission.admitted) {
    throw new ServiceError(
      'rate_limited',
      'Too many sign-in emails asked for; use a link already sent (each works 15 minutes) or wait a while',
      { headers: { 'retry-after': String(admission.retryAfterSeconds) } },
    );
  }
  await enqueue('signIns', [
    { email, requestedAt: new Date(now).toISOString(), reason: 'sign_in' } satisfies SignInJob,
  ]);
  return json(202, {
    ok: true,
    message: 'If this address belongs to a member, a sign-in link and code are on their way',
  });
});
