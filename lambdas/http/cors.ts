/**
 * Every answer of the public endpoints may be read by any website, including
 * the request id to quote in a support request, when to retry after a 429,
 * and whether a post was a replay of an earlier one (docs/submit.md#idempotency-key).
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, retry-after, idempotent-replayed',
};
