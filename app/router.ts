import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { APP_PATH, appUrl } from './base.ts';
import type { FormTab } from './paths.ts';

/** The app path of the page (`/forms/…`), and its query. */
export interface Location {
  path: string;
  query: URLSearchParams;
}

function current(): Location {
  const path = window.location.pathname.startsWith(APP_PATH)
    ? window.location.pathname.slice(APP_PATH.length) || '/'
    : '/';
  return { path, query: new URLSearchParams(window.location.search) };
}

const listeners = new Set<() => void>();

let pages = 0;
// Back and forward open another page too (registered before any screen's own listener).
window.addEventListener('popstate', () => {
  pages++;
});

/**
 * Which page the app shows, counted: each navigation (a link, back or
 * forward) opens a new one. What one page shows of a form is read once for
 * it (app/form-read.ts).
 */
export function currentPage(): number {
  return pages;
}

let leaving: (() => boolean) | undefined;

/**
 * While a screen holds unsaved changes, it asks before an in-app link takes
 * the person away (`ask` answers whether to go); undefined stops asking.
 */
export function askBeforeLeaving(ask: (() => boolean) | undefined): void {
  leaving = ask;
}

/** Goes to an app path (`/forms/x?folder=spam`); `replace` keeps history as it is. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (leaving && !leaving()) return;
  leaving = undefined;
  const url = appUrl(to);
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  pages++;
  for (const listener of listeners) listener();
}

/** The current location, re-rendering on navigation (links, back and forward). */
export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}

/** Matches `/forms/:id/submissions/:sid` style patterns; the named parts, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const found: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) found[part.slice(1)] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return undefined;
  }
  return found;
}

/** The named parts of a pattern, typed: `/forms/:id/submissions/:submissionId` has `id` and `submissionId`. */
export type Params<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & Params<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

/** A screen at a path pattern; `tab` puts it in its form's workspace under that tab. */
export interface Route {
  pattern: string;
  render: (params: Record<string, string>, query: URLSearchParams) => ComponentChildren;
  tab?: FormTab;
  /** Fetches the screen's code before it is shown (a lazy screen's chunk). */
  preload?: () => void;
}

/** A route whose render sees the pattern's own named parts, typed. */
export function route<P extends string>(
  pattern: P,
  render: (params: Params<P>, query: URLSearchParams) => ComponentChildren,
  options: { tab?: FormTab; preload?: () => void } = {},
): Route {
  return { pattern, render: render as Route['render'], ...options };
}

let table: Route[] = [];

/** The app's routes, first match wins (`app/routes.tsx`). */
export function setRoutes(routes: Route[]): void {
  table = routes;
}

/** The route of a path and its named parts, or undefined: no screen there (the 404 page). */
export function findRoute(
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of table) {
    const params = match(route.pattern, path);
    if (params) return { route, params };
  }
  return undefined;
}

/** Fetches the code of the screen at an app path (its query ignored), if it is a lazy one. */
export function preload(to: string): void {
  findRoute(to.split('?')[0]!)?.route.preload?.();
}
