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

/** Remembers where a person was when their session ended, to go back after signing in. */
export function rememberPlace(path: string): void {
  if (!path.startsWith('/sign-in')) sessionStorage.setItem(NEXT, path);
}

export function takePlace(): string {
  const next = sessionStorage.getItem(NEXT) ?? '/';
  sessionStorage.removeItem(NEXT);
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}
