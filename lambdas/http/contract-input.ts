import type * as z from 'zod/v4/core';
import type { Contract } from './contract.ts';
import { parse } from './parse.ts';

type Schema = z.$ZodType;

/** What a handler reads of its request through its contract: parsed when asked. */
export interface ContractInput<C extends Contract> {
  /** The query string parsed by the contract's schema: 400 `invalid_request` when it fails. */
  query(): C['query'] extends Schema ? z.output<C['query']> : Record<string, never>;
  /** The JSON body parsed by the contract's schema: 400 `invalid_request` when it fails. */
  body(): C['body'] extends Schema ? z.output<C['body']> : undefined;
  /**
   * The JSON body parsed by one member of the contract's body, where the
   * body is a union chosen by a path parameter (an integration's kind): its
   * 400 names that member's fields, not the union's.
   */
  bodyAs<S extends Schema>(member: S): z.output<S>;
}

/**
 * The input readers of one request. Parsing waits for the handler to ask, so
 * a route on a form finds the form first: another team's form is 404 what
 * ever the body holds (docs/api-basics.md#authentication).
 */
export function contractInput<C extends Contract>(
  declared: C,
  raw: { query: Record<string, string | undefined>; body: unknown },
): ContractInput<C> {
  return {
    query: () =>
      (declared.query ? parse(declared.query as never, raw.query, 'query string') : {}) as never,
    body: () =>
      (declared.body
        ? parse(declared.body as never, raw.body, 'request body')
        : undefined) as never,
    bodyAs: (member) => parse(member as never, raw.body, 'request body'),
  };
}
