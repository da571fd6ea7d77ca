import { BASE_PATH } from './base.ts';

/** An error answer of the API, with its envelope's code and issues. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: { path: string; message: string }[];
  constructor(
    status: number,
    code: string,
    message: string,
    issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

/** The network failed or the service answered 5xx: worth a retry button. */
export const isTransient = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status >= 500 || error.status === 429;

type Listener = () => void;
const signedOutListeners = new Set<Listener>();
/** Called when any request answers 401: the session ended. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * One call of the management API, same origin, with the session cookie.
 * JSON both ways; a non-2xx answer throws ApiError.
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${BASE_PATH}${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The service could not be reached. Check your connection.');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const envelope = (parsed ?? {}) as {
      error?: string;
      message?: string;
      issues?: ApiError['issues'];
    };
    if (response.status === 401 && !path.startsWith('/v1/auth/verify')) {
      for (const listener of signedOutListeners) listener();
    }
    throw new ApiError(
      response.status,
      envelope.error ?? 'error',
      envelope.message ?? `The service answered ${response.status}`,
      envelope.issues,
    );
  }
  return parsed as T;
}
