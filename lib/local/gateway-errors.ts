import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';

/**
 * The answers API Gateway writes itself, as the stack's gateway responses
 * shape them (lib/constructs/api-error-responses.ts): the service's JSON
 * envelope with the request id, CORS, and API Gateway's x-amzn-RequestId.
 */
function gatewayError(statusCode: number, error: string, message: string): APIGatewayProxyResult {
  const requestId = randomUUID();
  return {
    statusCode,
    headers: {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'x-amzn-requestid': requestId,
    },
    body: JSON.stringify({ ok: false, error, message, requestId }),
  };
}

/** REQUEST_TOO_LARGE: a body over 10 MB, or an event over Lambda's 6 MB. */
export const tooLarge = () => gatewayError(413, 'payload_too_large', 'Request Too Long');

/** DEFAULT_5XX for a function that failed, timed out or answered nothing API Gateway can read. */
export const integrationFailure = () =>
  gatewayError(502, 'internal_error', 'Internal server error');
