import type * as z from 'zod/v4/core';
import type { ErrorCode } from '#contracts/error-codes.ts';
import type { ResponseName } from '#contracts/responses.ts';

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
  /** What it answers when it succeeds (a 2xx, or a 3xx or 304 it means to give). */
  answers: readonly Answer[];
  /**
   * Error codes it may answer besides those every route of its kind may
   * (management: `unauthorized`, `not_found`, `rate_limited`,
   * `internal_error`, and `invalid_request` with a query or body).
   */
  errors: readonly ErrorCode[];
  /** Public routes answer every website (CORS headers on each answer). */
  cors?: boolean;
  /** Refusals come as a page too when a browser asks for HTML. */
  htmlErrors?: boolean;
}

/** Declares a contract, keeping its literal types for the wrapper and the client. */
export function defineContract<const C extends Contract>(declared: C): C {
  return declared;
}
