/**
 * Every error code the service answers, with its status: the one list the
 * OpenAPI document and the contracts' `errors` are checked against (a code
 * a route answers but no contract names fails the response tests).
 */
export const ERROR_CODES = {
  invalid_request: 400,
  no_session: 400,
  uploads_disabled: 400,
  upload_not_found: 400,
  upload_already_used: 400,
  upload_expired: 400,
  unauthorized: 401,
  form_limit_reached: 402,
  plan_required: 402,
  submission_limit_reached: 402,
  origin_not_allowed: 403,
  captcha_failed: 403,
  captcha_unavailable: 403,
  owner_only: 403,
  csrf: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  delivery_not_failed: 409,
  delivery_not_retryable: 409,
  already_member: 409,
  last_owner: 409,
  payload_too_large: 413,
  file_too_large: 413,
  too_many_files: 413,
  unsupported_media_type: 415,
  file_type_not_allowed: 415,
  empty_submission: 422,
  form_closed: 423,
  rate_limited: 429,
  internal_error: 500,
  busy: 503,
  incomplete: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

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
  422: 'No answer with visible content.',
  423: 'The form is closed.',
  429: 'Too many requests; `Retry-After` gives seconds.',
  500: 'A bug; the log has the stack.',
  503: 'Try again after `Retry-After`.',
};

/** Statuses whose answers carry `Retry-After`. */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];
