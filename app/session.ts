import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './model.ts';

/** Who is signed in (GET /v1/auth/session). */
export type { Session } from './model.ts';

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in screen');
  return session;
}

const NEXT = 'fs.next';
/** As long as a sign-in email's link lives: a place older than that is not where anyone waits. */
const PLACE_LIFETIME_MS = 15 * 60_000;

/**
 * Remembers where a person was when they were asked to sign in (a
 * notification's "View submission" opened signed out, or a session that
 * ended), to go back there after signing in. Kept in localStorage, not
 * sessionStorage: the sign-in email's link opens in a new tab.
 */
export function rememberPlace(path: string): void {
  if (path.startsWith('/sign-in')) return;
  localStorage.setItem(NEXT, JSON.stringify({ path, at: Date.now() }));
}

export function takePlace(): string {
  const kept = localStorage.getItem(NEXT);
  localStorage.removeItem(NEXT);
  let next = '/';
  try {
    const place = JSON.parse(kept ?? 'null') as { path?: unknown; at?: unknown } | null;
    if (
      typeof place?.path === 'string' &&
      typeof place.at === 'number' &&
      Date.now() - place.at < PLACE_LIFETIME_MS
    ) {
      next = place.path;
    }
  } catch {
    // Not ours, or from an older version: start at the forms list.
  }
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}
