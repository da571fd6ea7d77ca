import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Contract, ContractResponse } from './contract.ts';
import { CORS_HEADERS } from './cors.ts';
import { withRequestId } from './request-id.ts';
import type { HttpResponse } from './respond.ts';

/**
 * The CORS headers a route's answers carry, from its contract's `cors`
 * alone: every answer, errors and pages included, or none. The one place a
 * route's CORS is decided (the document reads the same `cors`).
 */
export function withContractCors(declared: Contract, response: HttpResponse) {
  if (!declared.cors) return response;
  return { ...response, headers: { ...CORS_HEADERS, ...response.headers } };
}

/**
 * Wraps a public handler (no caller: the submit endpoint, the hosted page and
 * its JSON): the request id, HEAD as GET, and the CORS its contract
 * declares. Its answers are typed from the contract like a management
 * handler's.
 */
export function publicRoute<C extends Contract>(
  declared: C,
  inner: (event: APIGatewayProxyEvent, context: Context) => Promise<ContractResponse<C>>,
) {
  return withRequestId(async (event, context) =>
    withContractCors(declared, await inner(event, context)),
  );
}
