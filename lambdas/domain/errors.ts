/**
 * Every error code the service answers, with its status: the one table a
 * ServiceError finds its status in, and the one list the OpenAPI document
 * and the contracts' `errors` are checked against (a code a route answers
 * but no contract names fails the response tests). The statuses are those of
 * docs/api-basics.md#errors (checked by test/unit/error-codes.test.ts).
 */
export const ERROR_CODES = {
  invalid_request: 400,
  no_session: 400,
  uploads_disabled: 400,
  upload_not_found: 400,
  upload_already_used: 400,
  upload_expired: 400,
  sheet_not_shared: 400,
  spreadsheet_not_found: 400,
  sheet_not_found: 400,
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
  invitation_accepted: 409,
  integration_not_configured: 409,
  file_not_scanned: 409,
  file_infected: 409,
  file_scan_failed: 409,
  submission_pending: 409,
  payload_too_large: 413,
  file_too_large: 413,
  too_many_files: 413,
  unsupported_media_type: 415,
  file_type_not_allowed: 415,
  empty_submission: 422,
  idempotency_key_reused: 422,
  form_closed: 423,
  rate_limited: 429,
  internal_error: 500,
  busy: 503,
  timeout: 503,
  incomplete: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Errors that carry the machine-readable code the client sees, and the
 * HTTP status the code has in ERROR_CODES. Domain and store code throw these; one middleware turns them into the
 * `{ ok: false, error, message, issues? }` envelope.
 */
export class ServiceError extends Error {
  readonly status: (typeof ERROR_CODES)[ErrorCode];
  readonly code: ErrorCode;
  readonly issues: unknown[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { issues?: unknown[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = 'ServiceError';
    this.status = ERROR_CODES[code];
    this.code = code;
    this.issues = extra.issues;
    this.headers = extra.headers ?? {};
  }
}

export const invalidRequest = (message: string, issues?: unknown[]) =>
  new ServiceError('invalid_request', message, { issues });

export const unauthorized = (message: string) => new ServiceError('unauthorized', message);

export const notFound = (what = 'Resource') => new ServiceError('not_found', `${what} not found`);

export const formLimitReached = (limit: number) =>
  new ServiceError(
    'form_limit_reached',
    `The Free plan allows ${limit} forms; delete one or upgrade to Pro`,
  );

export const planRequired = (what: string) =>
  new ServiceError('plan_required', `${what} needs the Pro plan`);
