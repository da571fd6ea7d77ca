import { config } from '#config';

export type CaptchaVerdict = 'passed' | 'failed' | 'unavailable';

const VERIFY_TIMEOUT_MS = 5000;

/**
 * Cloudflare Turnstile siteverify with the form's saved secret. The verify
 * URL is configuration, so the local stack and tests use a local verifier.
 * Anything but a clear `success: true` fails closed: a captcha that cannot
 * be checked protects nothing if it lets the post through.
 */
export async function verifyTurnstile(input: {
  secret: string;
  token: string;
  remoteIp?: string;
  idempotencyKey: string;
}): Promise<CaptchaVerdict> {
  const body = new URLSearchParams({
    secret: input.secret,
    response: input.token,
    idempotency_key: input.idempotencyKey,
  });
  if (input.remoteIp) body.set('remoteip', input.remoteIp);
  let response: Response;
  try {
    response = await fetch(config.turnstileVerifyUrl, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch {
    return 'unavailable';
  }
  if (!response.ok) return 'unavailable';
  const answer = (await response.json().catch(() => undefined)) as
    | { success?: unknown }
    | undefined;
  if (answer === undefined) return 'unavailable';
  return answer.success === true ? 'passed' : 'failed';
}
