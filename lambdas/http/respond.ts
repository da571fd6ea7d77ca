import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ServiceError } from '#domain/errors.ts';

export type HttpResponse = APIGatewayProxyResult;

declare const built: unique symbol;

/**
 * A response that remembers, in its type alone, the status and the JSON body
 * it was built from, so a route's wrapper can check them against its
 * contract's answers (`ContractResponse` in contract.ts). Nothing of it
 * exists at run time. A status chosen at run time (`created ? 201 : 200`)
 * gives one such type per status.
 */
export type JsonResponse<S extends number = number, B = unknown> = S extends number
  ? HttpResponse & { readonly [built]?: { status: S; body: B } }
  : never;

export function json<const S extends number, const B>(
  statusCode: S,
  body: B,
  headers: Record<string, string> = {},
): JsonResponse<S, B> {
  const response: HttpResponse = {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
  return response as JsonResponse<S, B>;
}

export interface ErrorBody {
  ok: false;
  error: string;
  message: string;
  issues?: unknown[];
}

export function errorBody(code: string, message: string, issues?: unknown[]): ErrorBody {
  return issues ? { ok: false, error: code, message, issues } : { ok: false, error: code, message };
}

/**
 * A refusal in the envelope: the status is its code's (ERROR_CODES), with
 * the headers it carries (`retry-after`, `allow`).
 */
export function errorJson(error: ServiceError) {
  return json(error.status, errorBody(error.code, error.message, error.issues), error.headers);
}
