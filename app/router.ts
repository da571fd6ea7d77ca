import { useEffect, useState } from 'preact/hooks';
import { APP_PATH, appUrl } from './base.ts';

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
