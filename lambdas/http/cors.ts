/**
 * Every answer of the public endpoints may be read by any website, including
 * the request id to quote in a support request and when to retry after a 429.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, retry-after',
};
