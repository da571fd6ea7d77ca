import { randomBytes } from 'node:crypto';
import type { Member, Role } from './members.ts';
import { hashSecret } from './sign-in.ts';

/**
 * Dashboard sessions. The cookie holds `<teamId>.<userId>.<secret>`: the
 * ids are not secret and let the auth middleware read the session and the
 * team in one BatchGet; the 256-bit secret is stored only as its SHA-256.
 * Each request reads the session with its member: it acts with the
 * member's current role, and not at all once the member is gone (removing
 * a member also deletes their sessions, but nothing depends on that sweep).
 * A session is only created while its member stands as it read
 * (store/sessions.ts). A session ends 7 days after its last use (sliding:
 * the last use is written at most once an hour) and 30 days after it
 * began, whatever its use; signing out, removing the member or deleting
 * the team ends it at once.
 */
export const SESSION_COOKIE = 'fs_session';
export const SESSION_IDLE_SECONDS = 7 * 86_400;
export const SESSION_ABSOLUTE_SECONDS = 30 * 86_400;
/** How stale `lastSeenAt` may get before a request writes it again. */
export const SESSION_TOUCH_SECONDS = 3600;

export interface Session {
  /** The secret's hash: the session's id in the API (`GET /v1/auth/sessions`). */
  sessionId: string;
  teamId: string;
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
}

export interface IssuedSession {
  cookieValue: string;
  session: Session;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export function issueSession(input: {
  member: Pick<Member, 'teamId' | 'userId' | 'email' | 'role'>;
  now: Date;
  ip: string | null;
  userAgent: string | null;
}): IssuedSession {
  const secret = randomBytes(32).toString('base64url');
  const at = input.now.toISOString();
  const { teamId, userId, email, role } = input.member;
  return {
    cookieValue: `${teamId}.${userId}.${secret}`,
    session: {
      sessionId: hashSecret(secret),
      teamId,
      userId,
      email,
      role,
      createdAt: at,
      lastSeenAt: at,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
    },
  };
}

/** The ids and the secret's hash a cookie names, or undefined for anything malformed. */
export function parseSessionCookie(
  value: string,
): { teamId: string; userId: string; sessionId: string } | undefined {
  const [teamId, userId, secret, ...rest] = value.split('.');
  if (rest.length > 0 || !teamId || !userId || !secret) return undefined;
  if (!ID.test(teamId) || !ID.test(userId) || !SECRET.test(secret)) return undefined;
  return { teamId, userId, sessionId: hashSecret(secret) };
}

/** When the session ends if not used again: the earlier of idle and absolute expiry. */
export function sessionExpiresAt(session: Pick<Session, 'createdAt' | 'lastSeenAt'>): Date {
  const idle = Date.parse(session.lastSeenAt) + SESSION_IDLE_SECONDS * 1000;
  const absolute = Date.parse(session.createdAt) + SESSION_ABSOLUTE_SECONDS * 1000;
  return new Date(Math.min(idle, absolute));
}

export function sessionLive(
  session: Pick<Session, 'createdAt' | 'lastSeenAt'>,
  now: Date,
): boolean {
  return sessionExpiresAt(session).getTime() > now.getTime();
}

/** Whether this request should slide the session forward (write `lastSeenAt`). */
export function sessionNeedsTouch(session: Pick<Session, 'lastSeenAt'>, now: Date): boolean {
  return now.getTime() - Date.parse(session.lastSeenAt) >= SESSION_TOUCH_SECONDS * 1000;
}

/** The value of `cookie` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie header of a session (or, with `value` null, of its end):
 * HttpOnly, SameSite=Lax, path `/`, Secure unless the service's base URL is
 * plain `http://` (the local stack; any case of the scheme), and kept no
 * longer than the session lives unused: `maxAge`, at most the 7 idle days
 * (the middleware sends it again when a request slides the session).
 */
export function sessionCookieHeader(
  value: string | null,
  baseUrl: string,
  maxAge = SESSION_IDLE_SECONDS,
): string {
  const secure = /^http:\/\//i.test(baseUrl.trim()) ? '' : '; Secure';
  const seconds =
    value === null ? 0 : Math.max(0, Math.min(Math.floor(maxAge), SESSION_IDLE_SECONDS));
  return `${SESSION_COOKIE}=${value ?? ''}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${seconds}${secure}`;
}

/** How long a session's cookie should live from `now`: until the session would end unused. */
export function sessionCookieMaxAge(
  session: Pick<Session, 'createdAt' | 'lastSeenAt'>,
  now: Date,
): number {
  return Math.floor((sessionExpiresAt(session).getTime() - now.getTime()) / 1000);
}

/**
 * Whether a cookie-authenticated request comes from the dashboard's own
 * origin: `Sec-Fetch-Site: same-origin` (every current browser sends it), or
 * else an `Origin` equal to the service's. A cross-site form or script
 * sends neither, so its state-changing request is refused (403 `csrf`).
 */
export function fromOwnOrigin(
  headers: { secFetchSite?: string; origin?: string },
  baseUrl: string,
): boolean {
  if (headers.secFetchSite !== undefined) return headers.secFetchSite === 'same-origin';
  if (headers.origin === undefined) return false;
  return URL.canParse(baseUrl) && headers.origin === new URL(baseUrl).origin;
}

/** What `GET /v1/auth/sessions` shows of one session. */
export function toSessionView(session: Session, current: string | undefined) {
  const { sessionId, createdAt, lastSeenAt, ip, userAgent } = session;
  return {
    sessionId,
    createdAt,
    lastSeenAt,
    expiresAt: sessionExpiresAt(session).toISOString(),
    ip,
    userAgent,
    current: sessionId === current,
  };
}
