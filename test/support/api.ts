import { inject } from 'vitest';

export const stack = () => inject('localStack');

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * Real HTTP to the local gateway. `key: null` sends no Authorization header.
 * Any 5xx fails the calling test unless it says `allowServerError`: no
 * response of the suite may be a 500 by accident.
 */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: {
    key?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    allowServerError?: boolean;
  } = {},
): Promise<ApiResponse<T>> {
  const key = options.key === undefined ? stack().apiKeys.pro : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${stack().baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  if (response.status >= 500 && !options.allowServerError) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  }
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
