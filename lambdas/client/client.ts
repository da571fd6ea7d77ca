import type * as z from 'zod/v4/core';
import type { ResponseBody, ResponseName } from '#contracts/responses.ts';
import { ROUTE_ADDRESSES, type RouteContracts } from './routes.generated.ts';

/**
 * The typed client of the management API, from the routes' contracts:
 * `client.call('updateForm', { params: { id }, body: { name } })` checks the
 * path parameters, the body and the query string against the route's
 * contract and returns its success answer's body typed. No step can go
 * stale: the types come from the contracts themselves, and the addresses
 * from `routes.generated.ts`, which a test keeps equal to the route table.
 */

export type RouteName = keyof RouteContracts;
type ParamNames<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? K | ParamNames<Rest>
  : never;
type InputOf<S> = S extends z.$ZodType ? z.input<S> : never;

type ParamsInput<P extends string> = [ParamNames<P>] extends [never]
  ? { params?: undefined }
  : { params: { [K in ParamNames<P>]: string } };
type BodyInput<C> = C extends { body: infer B } ? { body: InputOf<B> } : { body?: undefined };
type QueryInput<C> = C extends { query: infer Q }
  ? { query?: { [K in keyof InputOf<Q>]?: string | number | boolean | undefined } }
  : { query?: undefined };

/** Cancels the call: its fetch is aborted and the call rejects with the signal's reason. */
type SignalInput = { signal?: AbortSignal };

/** What a call of a route at path P with contract C sends: path parameters, body, query string. */
export type ContractCall<C, P extends string> = ParamsInput<P> &
  BodyInput<C> &
  QueryInput<C> &
  SignalInput;

type BodyOf<B> = B extends ResponseName ? ResponseBody<B> : B extends null ? undefined : string;

/** A success answer of a route with contract C: its status and its body, typed. */
export type ContractResult<C> = C extends { answers: readonly (infer A)[] }
  ? A extends { status: 200 | 201 | 202 | 204; body: infer B }
    ? { status: A['status']; body: BodyOf<B>; headers: Headers }
    : never
  : never;

export type CallInput<N extends RouteName> = ContractCall<
  RouteContracts[N],
  (typeof ROUTE_ADDRESSES)[N][1]
>;
export type CallResult<N extends RouteName> = ContractResult<RouteContracts[N]>;
/** A call's arguments after the route's name: its input, optional when nothing in it is required. */
export type CallArgs<N extends RouteName> =
  object extends CallInput<N> ? [CallInput<N>?] : [CallInput<N>];

/** An error answer (its envelope's code, message and issues), or `network` (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: readonly { path: string; code?: string; message: string }[];
  constructor(status: number, code: string, message: string, issues: ApiError['issues'] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export interface ClientOptions {
  /** Where the API answers: `https://forms.example.com`, or `''` for the page's own origin. */
  baseUrl: string;
  /** Headers of every call, e.g. `authorization: Bearer <key>`. */
  headers?: Readonly<Record<string, string>>;
  /** `same-origin` for the dashboard's session cookie. */
  credentials?: RequestCredentials;
  /** Told of every error answer before it is thrown (the dashboard signs out on a 401). */
  onError?: (error: ApiError, route: RouteName) => void;
  /** The fetch to use (tests wrap it to check every answer against the document). */
  fetch?: typeof fetch;
}

/** Fills a path template's `{name}` parts, each encoded. */
export function pathOf(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{([^}+]+)\+?\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

function queryString(query: Readonly<Record<string, unknown>> = {}): string {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return '';
  return `?${new URLSearchParams(entries.map(([name, value]) => [name, String(value)]))}`;
}

export type Client = ReturnType<typeof createClient>;

export function createClient(options: ClientOptions) {
  async function call<N extends RouteName>(
    name: N,
    ...[input]: CallArgs<N>
  ): Promise<CallResult<N>> {
    const [method, template] = ROUTE_ADDRESSES[name];
    const sent = (input ?? {}) as {
      params?: Record<string, string>;
      body?: unknown;
      query?: Record<string, unknown>;
      signal?: AbortSignal;
    };
    const url = `${options.baseUrl}${pathOf(template, sent.params)}${queryString(sent.query)}`;
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, {
        method,
        credentials: options.credentials,
        headers: {
          ...options.headers,
          ...(sent.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: sent.body === undefined ? undefined : JSON.stringify(sent.body),
        signal: sent.signal,
      });
    } catch (failure) {
      // A call its caller cancelled is no failure of the service: nobody is told of it.
      if (sent.signal?.aborted) throw sent.signal.reason ?? failure;
      const error = new ApiError(0, 'network', 'The service could not be reached.');
      options.onError?.(error, name);
      throw error;
    }
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
    let body: unknown = text;
    if (json) {
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
    }
    if (!response.ok) {
      const envelope = (json ? (body ?? {}) : {}) as {
        error?: string;
        message?: string;
        issues?: ApiError['issues'];
      };
      const error = new ApiError(
        response.status,
        envelope.error ?? 'error',
        envelope.message ?? `The service answered ${response.status}`,
        envelope.issues,
      );
      options.onError?.(error, name);
      throw error;
    }
    return { status: response.status, body, headers: response.headers } as CallResult<N>;
  }
  return { call };
}
