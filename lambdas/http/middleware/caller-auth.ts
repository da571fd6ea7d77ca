import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '#config';
import { hashMatches, keyIdOf } from '#domain/api-keys.ts';
import { ServiceError, unauthorized } from '#domain/errors.ts';
import type { Member, Role } from '#domain/members.ts';
import { retryAfterSeconds, windowAt } from '#domain/rate-limit.ts';
import {
  cookieValue,
  fromOwnOrigin,
  parseSessionCookie,
  SESSION_COOKIE,
  sessionCookieHeader,
  sessionCookieMaxAge,
  sessionLive,
  sessionNeedsTouch,
} from '#domain/sessions.ts';
import { header } from '#http/request.ts';
import type { HttpResponse } from '#http/respond.ts';
import { addLogContext } from '#log';
import { type ApiKeyRecord, getApiKey, readKeyContext } from '#store/api-keys.ts';
import { admitRequest, managementKeyScope, memberScope } from '#store/request-counts.ts';
import { getTeam, type Team } from '#store/teams.ts';

/**
 * Who makes a management request: an API key (`Authorization: Bearer`),
 * which acts with its creator's current membership (an operator's key as
 * an owner), or a member signed in to the dashboard (the session cookie),
 * with their current role.
 */
export interface Caller {
  team: Team;
  /** The member: a session's, or the one who created the API key. */
  userId: string;
  role: Role;
  /** The member as read for this request (absent for an operator's key). */
  member?: Member;
  /** An operator's key (made by the admin CLI): acts as an owner whoever the members are. */
  operator?: boolean;
  via: 'apiKey' | 'session';
  /** The API key's public id (API-key callers). */
  keyId?: string;
  /** The session's id (session callers). */
  sessionId?: string;
  /** The member's address (session callers). */
  email?: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CallerAuthOptions {
  /**
   * A session's GET must come from the service's own origin too, as a
   * write must: for a read that records something in the member's name
   * (the export by email writes `privacy.exported`), which a link or an
   * image on another site must not make happen (docs/privacy.md#who-can-read-it).
   */
  originProofOnReads?: boolean;
}

/**
 * The one authentication of the management API: a Bearer API key when the
 * request sends one (unchanged for API clients), else the session cookie,
 * else 401. A cookie request that changes state (or any cookie request,
 * with `originProofOnReads`) must come from the service's own origin
 * (403 `csrf`). Each caller counts against its own per-minute limit (the
 * key's, or the member's).
 */
export function callerAuth(
  options: CallerAuthOptions = {},
): MiddlewareObj<APIGatewayProxyEvent, HttpResponse> {
  return {
    before: async (request) => {
      const authorization = header(request.event, 'authorization');
      const cookie = cookieValue(header(request.event, 'cookie'), SESSION_COOKIE);
      let caller: Caller;
      if (authorization) caller = await apiKeyCaller(authorization, request.event);
      else if (cookie) {
        const signedIn = await sessionCaller(cookie, request.event, options);
        caller = signedIn.caller;
        renewedCookie.set(request, signedIn.renewedCookie);
      } else throw unauthorized('Send an API key as Authorization: Bearer <key>, or sign in');
      addLogContext(
        caller.via === 'apiKey'
          ? { keyId: caller.keyId, teamId: caller.team.teamId }
          : { userId: caller.userId, teamId: caller.team.teamId },
      );
      (request.context as unknown as { caller: Caller }).caller = caller;
    },
    after: (request) => {
      // The session slid forward: its cookie lives 7 more idle days too, unless the
      // route set the cookie itself (signing out clears it).
      const setCookie = renewedCookie.get(request);
      const response = request.response;
      if (!setCookie || !response) return;
      const headers = (response.headers ?? {}) as Record<string, string>;
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'set-cookie')) {
        response.headers = { ...headers, 'set-cookie': setCookie };
      }
    },
  };
}

/** The renewed Set-Cookie of a request whose session slid forward, until its answer is made. */
const renewedCookie = new WeakMap<object, string | undefined>();

async function apiKeyCaller(authorization: string, event: APIGatewayProxyEvent): Promise<Caller> {
  const apiKey = BEARER.exec(authorization)?.[1];
  const keyId = apiKey ? keyIdOf(apiKey) : undefined;
  if (!apiKey || !keyId) throw unauthorized('The Authorization header is not a valid API key');
  const record = await getApiKey(keyId);
  if (!record || !hashMatches(apiKey, record.hash)) throw unauthorized('Unknown API key');
  if (record.revokedAt) throw unauthorized('This API key has been revoked');
  const now = new Date();
  const window = windowAt(now.getTime(), 60);
  const today = now.toISOString().slice(0, 10);
  // The team (with the creator's membership), the rate count and the day's use
  // are independent: one round trip. The day's first request notes the use;
  // only it loads the code that writes it.
  const [{ team, member }, admitted] = await Promise.all([
    record.operator
      ? getTeam(record.teamId).then((found) => ({ team: found, member: undefined }))
      : readKeyContext(record.teamId, record.userId),
    admitRequest(managementKeyScope(keyId), window, config.managementRatePerMinute),
    record.lastUsedOn === today && record.listed
      ? undefined
      : import('#store/api-key-listings.ts').then((m) => m.noteApiKeyUse(record, today)),
  ]);
  if (!admitted) throw rateLimited('This API key', window, now);
  if (!team) throw unauthorized('The team of this API key no longer exists');
  if (!team.membersSince) {
    // A team made before members: its owner becomes one, once. Its keys are its owner's.
    await (await import('#store/members.ts')).ensureOwnerMember(team, now);
    return { team, userId: record.userId, role: 'owner', via: 'apiKey', keyId };
  }
  if (record.operator) {
    return { team, userId: record.userId, role: 'owner', via: 'apiKey', keyId, operator: true };
  }
  if (!member) {
    await revokeOrphanKey(record, event);
    throw unauthorized('The member who created this API key has left the team; it is revoked');
  }
  return { team, userId: record.userId, role: member.role, member, via: 'apiKey', keyId };
}

/**
 * A key whose creator is no longer a member: removal revokes a member's
 * keys with it, so this is a key that escaped that (one made before the
 * rule); it is revoked now, and the trail says why.
 */
async function revokeOrphanKey(record: ApiKeyRecord, event: APIGatewayProxyEvent): Promise<void> {
  const [{ revokeApiKey }, { audit }] = await Promise.all([
    import('#store/api-key-listings.ts'),
    import('#http/audit-record.ts'),
  ]);
  if (!(await revokeApiKey(record.keyId))) return;
  await audit({
    teamId: record.teamId,
    event,
    actor: { kind: 'apiKey', userId: record.userId, email: null, keyId: record.keyId },
    action: 'api_key.revoked',
    target: record.keyId,
    details: { name: record.name, reason: 'member_removed' },
  });
}

async function sessionCaller(
  cookie: string,
  event: APIGatewayProxyEvent,
  options: CallerAuthOptions,
): Promise<{ caller: Caller; renewedCookie?: string }> {
  const ids = parseSessionCookie(cookie);
  if (!ids) throw signInAgain();
  const now = new Date();
  // Loaded by the first cookie request only: API-key callers never read it at a cold start.
  const { readSessionContext, touchSession } = await import('#store/sessions.ts');
  const { session, team, member } = await readSessionContext(ids);
  if (!session || !team || !member || !sessionLive(session, now)) throw signInAgain();
  if (options.originProofOnReads || !SAFE_METHODS.has(event.httpMethod.toUpperCase())) {
    const origin = {
      secFetchSite: header(event, 'sec-fetch-site'),
      origin: header(event, 'origin'),
    };
    if (!fromOwnOrigin(origin, config.baseUrl)) {
      throw new ServiceError(
        'csrf',
        options.originProofOnReads
          ? 'A signed-in request to this route must come from the dashboard itself (same origin)'
          : 'A signed-in change must come from the dashboard itself (same origin)',
      );
    }
  }
  const window = windowAt(now.getTime(), 60);
  const touch = sessionNeedsTouch(session, now);
  const [admitted] = await Promise.all([
    admitRequest(memberScope(team.teamId, session.userId), window, config.managementRatePerMinute),
    touch ? touchSession(session, now) : undefined,
  ]);
  if (!admitted) throw rateLimited('A signed-in member', window, now);
  const caller: Caller = {
    team,
    userId: session.userId,
    role: member.role,
    member,
    via: 'session',
    sessionId: session.sessionId,
    email: member.email,
  };
  if (!touch) return { caller };
  const slid = { createdAt: session.createdAt, lastSeenAt: now.toISOString() };
  return {
    caller,
    renewedCookie: sessionCookieHeader(cookie, config.baseUrl, sessionCookieMaxAge(slid, now)),
  };
}

const signInAgain = () => unauthorized('Your session has ended; sign in again');

function rateLimited(who: string, window: ReturnType<typeof windowAt>, now: Date) {
  return new ServiceError(
    'rate_limited',
    `${who} is limited to ${config.managementRatePerMinute} requests a minute`,
    { headers: { 'retry-after': String(retryAfterSeconds(window, now.getTime())) } },
  );
}
