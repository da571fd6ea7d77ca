import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { retryAfterSeconds, windowAt } from '#domain/rate-limit.ts';
import { admitRequest, submitFormScope, submitVisitorScope } from '#store/rate-limits.ts';

/**
 * Step 4 of the submit endpoint, shared with the uploads route (the same
 * windows: a request for upload policies counts as a post): 429 with
 * Retry-After past the per-form or per-visitor rate.
 */
export async function enforceRateLimits(formId: string, ip: string | undefined, now: Date) {
  const window = windowAt(now.getTime(), 60);
  const checks = [admitRequest(submitFormScope(formId), window, config.submitRatePerFormPerMinute)];
  if (ip) {
    checks.push(
      admitRequest(submitVisitorScope(formId, ip), window, config.submitRatePerIpPerMinute),
    );
  }
  if (!(await Promise.all(checks)).every(Boolean)) {
    const seconds = retryAfterSeconds(window, now.getTime());
    throw new ServiceError('rate_limited', 'Too many submissions; try again shortly', {
      headers: { 'retry-after': String(seconds) },
    });
  }
}
