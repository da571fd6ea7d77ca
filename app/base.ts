/// <reference lib="dom" />
/**
 * Where the dashboard lives: the shell names the service's base path (the
 * API Gateway stage, or nothing locally) in `<meta name="base-path">`, so
 * links and API calls work under either.
 */
export const BASE_PATH =
  document.querySelector<HTMLMetaElement>('meta[name="base-path"]')?.content ?? '';
export const APP_PATH = `${BASE_PATH}/app`;

/** An app path (`/forms/…`) as a URL path of the page. */
export const appUrl = (path: string) => `${APP_PATH}${path === '/' ? '' : path}`;

/** Whether the page came with a session cookie (the shell says; the cookie itself is HttpOnly). */
export const MAYBE_SIGNED_IN =
  document.querySelector<HTMLMetaElement>('meta[name="session"]')?.content !== 'none';
