import type * as z from 'zod/v4/core';
import type { ERROR_CODES, ErrorCode } from '#contracts/error-codes.ts';
import type { ResponseBody, ResponseName } from '#contracts/responses.ts';
import type { ErrorBody, JsonResponse } from './respond.ts';

/**
 * A route's contract, declared once in its handler module (`export const
 * contract`), which the route table names: what the route takes (query
 * string, JSON body: zod schemas) and what it answers (statuses with the
 * shape of each body, and the error codes it may answer). The handler's
 * wrapper parses the input with it, `npm run openapi` builds the document
 * from it, and the typed client (`lambdas/client/`) takes its types from it.
 *
 * Response shapes are named (`ResponseName`), not imported: the shapes live
 * in `lambdas/contracts/responses.ts`, which only the document, the tests
 * and the client's types read, so no handler bundles another's schema.
 */

type Schema = z.$ZodType;

/** One answer of a route: its status, what it means, and what its body is. */
export interface Answer {
  status: number;
  description: string;
  /** A JSON body of this shape, or a body of another media type, or none (`null`). */
  body: ResponseName | { mediaType: string; description?: string } | null;
  /** Response headers beyond `x-request-id` (e.g. `location`, `set-cookie`, `etag`): name → meaning. */
  headers?: Readonly<Record<string, string>>;
  /** A browser asking for HTML gets a page instead of the JSON body. */
  alsoHtml?: boolean;
}

export interface Contract {
  /** The OpenAPI tag: where the reference groups it. */
  tag: string;
  /** More than the table's one-line summary: how the route behaves. */
  description?: string;
  /** The query string's schema (values arrive as strings). */
  query?: Schema;
  /** The JSON body's schema. */
  body?: Schema;
  /**
   * A body other than JSON, described for the document (the submit
   * endpoint's form posts): media type → JSON Schema.
   */
  bodyMedia?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Optional request headers it reads (the submit endpoint's `Idempotency-Key`): name → meaning and JSON Schema. */
  requestHeaders?: Readonly<
    Record<string, { description: string; schema: Readonly<Record<string, unknown>> }>
  >;
  /** What it answers when it succeeds (a 2xx, or a 3xx or 304 it means to give). */
  answers: readonly Answer[];
  /**
   * Error codes it may answer besides those every route of its kind may
   * (management: `unauthorized`, `not_found`, `rate_limited`,
   * `internal_error`, and `invalid_request` with a query or body).
   */
  errors: readonly ErrorCode[];
  /**
   * Any website may read its answers: CORS headers on every answer, errors
   * and pages included. The one declaration: publicRoute and staticAnswer add
   * the headers from it, and the document lists them from it.
   */
  cors?: boolean;
  /** Refusals come as a page too when a browser asks for HTML. */
  htmlErrors?: boolean;
}

/** Declares a contract, keeping its literal types for the wrapper and the client. */
export function defineContract<const C extends Contract>(declared: C): C {
  return declared;
}

/**
 * The response one answer allows: its status, with its named shape as the
 * JSON body (no JSON body where it has none; any where it names a media type).
 */
type AnswerResponse<A> = A extends { status: infer S extends number; body: infer B }
  ? JsonResponse<S, B extends ResponseName ? ResponseBody<B> : B extends null ? never : unknown>
  : never;

/**
 * What a handler of contract C may return: one of its answers, the body of
 * that answer's status in the shape its contract names (typecheck refuses
 * another), or an error envelope with an error status. Types only: the
 * shapes are never bundled. A response built without `json` (a redirect, a
 * CSV, an empty 204) carries no body type and is not checked.
 */
export type ContractResponse<C extends Contract> =
  | AnswerResponse<C['answers'][number]>
  | JsonResponse<(typeof ERROR_CODES)[ErrorCode], ErrorBody>;
