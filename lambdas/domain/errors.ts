/**
 * Errors that carry the HTTP status and the machine-readable code the client
 * sees. Domain and store code throw these; one middleware turns them into the
 * `{ ok: false, error, message, issues? }` envelope.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: unknown[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { issues?: unknown[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = 'ServiceError';
    this.status = status;
    this.code = code;
    this.issues = extra.issues;
    this.headers = extra.headers ?? {};
  }
}

export const invalidRequest = (message: string, issues?: unknown[]) =>
  new ServiceError(400, 'invalid_request', message, { issues });

export const unauthorized = (message: string) => new ServiceError(401, 'unauthorized', message);

export const notFound = (what = 'Resource') =>
  new ServiceError(404, 'not_found', `${what} not found`);

export const formLimitReached = (limit: number) =>
  new ServiceError(
    402,
    'form_limit_reached',
    `The Free plan allows ${limit} forms; delete one or upgrade to Pro`,
  );

export const planRequired = (what: string) =>
  new ServiceError(402, 'plan_required', `${what} needs the Pro plan`);
