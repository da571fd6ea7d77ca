export { ERROR_CODES, type ErrorCode } from '#domain/errors.ts';

/** What each error status means, for the reference. */
export const ERROR_STATUSES: Record<number, string> = {
  400: 'Malformed JSON or a failed schema; on the public routes, files the form does not take.',
  401: 'Missing, malformed, unknown or revoked credentials.',
  402: 'A plan limit.',
  403: 'Refused.',
  404: 'Unknown path, or not in the caller’s team.',
  405: 'Known path, other method (`Allow`).',
  409: 'A conflict with the state of things.',
  413: 'The body is too large.',
  415: 'The body’s type is not accepted.',
  422: 'No answer with visible content; or an `Idempotency-Key` reused for another post.',
  423: 'The form is closed.',
  429: 'Too many requests; `Retry-After` gives seconds.',
  500: 'A bug; the log has the stack.',
  503: 'Try again after `Retry-After`.',
};

/** Statuses whose answers carry `Retry-After`. */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];
