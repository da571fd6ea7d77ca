import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CORS_HEADERS } from '#http/cors.ts';

interface ErrorResponse {
  type: ResponseType;
  /** Overrides the type's own status (only where that status misleads). */
  statusCode?: string;
  error: string;
  /** A literal message; otherwise API Gateway's own (JSON-quoted) message. */
  message?: string;
  headers?: Record<string, string>;
}

/**
 * Errors API Gateway raises before any function runs (throttling, oversized
 * bodies, timeouts) answer in the service's JSON envelope, with the CORS
 * header every response carries, instead of `{"message": ...}`. Gateway
 * response templates get $context substitution but no VTL, so each code is
 * fixed per response type.
 */
export const ERROR_RESPONSES: readonly ErrorResponse[] = [
  { type: ResponseType.DEFAULT_4XX, error: 'bad_request' },
  { type: ResponseType.DEFAULT_5XX, error: 'internal_error' },
  // Stage throttling has no per-client window to report; one second is the
  // honest lower bound for a token bucket refilled every second.
  { type: ResponseType.THROTTLED, error: 'rate_limited', headers: { 'Retry-After': "'1'" } },
  { type: ResponseType.REQUEST_TOO_LARGE, error: 'payload_too_large' },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, error: 'unsupported_media_type' },
  { type: ResponseType.INTEGRATION_TIMEOUT, error: 'timeout' },
  // Every path has a catch-all method, so this means a path API Gateway
  // could not route at all; its stock 403 "Missing Authentication Token"
  // is a 404 in disguise.
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    error: 'not_found',
    message: 'No route for this path',
  },
];

/** Headers a cross-origin script may read: the same list the handlers' responses expose. */
export const EXPOSED_HEADERS = CORS_HEADERS['access-control-expose-headers'];

export function addErrorResponses(api: RestApi): void {
  for (const response of ERROR_RESPONSES) {
    const message =
      response.message === undefined
        ? '$context.error.messageString'
        : JSON.stringify(response.message);
    api.addGatewayResponse(response.type.responseType, {
      type: response.type,
      statusCode: response.statusCode,
      responseHeaders: {
        'Access-Control-Allow-Origin': "'*'",
        // A browser script may read these only when exposed (Retry-After on a 429).
        'Access-Control-Expose-Headers': `'${EXPOSED_HEADERS}'`,
        ...response.headers,
      },
      templates: {
        // A gateway response can set headers only from literals and request
        // parameters, not `x-request-id`: the id is in the body (and in API
        // Gateway's own x-amzn-RequestId header), the same id the logs carry.
        'application/json': `{"ok":false,"error":${JSON.stringify(response.error)},"message":${message},"requestId":"$context.requestId"}`,
      },
    });
  }
}
