import { describe, expect, it } from 'vitest';
import {
  cookieValue,
  fromOwnOrigin,
  issueSession,
  parseSessionCookie,
  SESSION_ABSOLUTE_SECONDS,
  SESSION_IDLE_SECONDS,
  sessionCookieHeader,
  sessionCookieMaxAge,
  sessionExpiresAt,
  sessionLive,
  sessionNeedsTouch,
} from '#domain/sessions.ts';
import { hashSecret } from '#domain/sign-in.ts';

const member = {
  teamId: '0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10',
  userId: '1c7f7f2f-6d2b-4b64-8e2c-5b8d8f1d3a21',
  email: 'ada@example.com',
  role: 'member' as const,
};
const start = new Date('2026-01-01T00:00:00.000Z');
const plus = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe('session cookies', () => {
  it('name the team and member, and hold a 256-bit secret stored only as its hash', () => {
    const { cookieValue: value, session } = issueSession({
      member,
      now: start,
      ip: '203.0.113.9',
      userAgent: 'x'.repeat(500),
    });
    const [teamId, userId, secret] = value.split('.');
    expect([teamId, userId]).toEqual([member.teamId, member.userId]);
    expect(Buffer.from(secret!, 'base64url')).toHaveLength(32);
    expect(session.sessionId).toBe(hashSecret(secret!));
    expect(JSON.stringify(session)).not.toContain(secret);
    expect(session.userAgent).toHaveLength(300);
    expect(parseSessionCookie(value)).toEqual({
      teamId: member.teamId,
      userId: member.userId,
      sessionId: session.sessionId,
    });
  });

  it('two sessions never share a secret', () => {
    const a = issueSession({ member, now: start, ip: null, userAgent: null });
    const b = issueSession({ member, now: start, ip: null, userAgent: null });
    expect(a.session.sessionId).not.toBe(b.session.sessionId);
  });

  it.each([
    '',
    'nonsense',
    `${member.teamId}.${member.userId}`,
    `${member.teamId}.${member.userId}.short`,
    `${member.teamId}.${member.userId}.${'a'.repeat(43)}.extra`,
    `../etc.${member.userId}.${'a'.repeat(43)}`,
    `${member.teamId}.${member.userId}.${'a'.repeat(42)}=`,
  ])('a malformed cookie %j names no session', (value) => {
    expect(parseSessionCookie(value)).toBeUndefined();
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(cookieValue('a=1; fs_session=abc.def; b=2', 'fs_session')).toBe('abc.def');
    expect(cookieValue('xfs_session=1', 'fs_session')).toBeUndefined();
    expect(cookieValue(undefined, 'fs_session')).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Lax, path /, Secure unless the base URL is plain http; signing out clears it', () => {
    expect(sessionCookieHeader('v', 'https://forms.example.com')).toBe(
      `fs_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_IDLE_SECONDS}; Secure`,
    );
    expect(sessionCookieHeader('v', 'HTTPS://Forms.Example.com')).toMatch(/; Secure$/);
    expect(sessionCookieHeader('v', '')).toMatch(/; Secure$/);
    expect(sessionCookieHeader('v', 'http://127.0.0.1:4010')).not.toContain('Secure');
    expect(sessionCookieHeader('v', 'HTTP://127.0.0.1:4010')).not.toContain('Secure');
    expect(sessionCookieHeader(null, 'https://x.example')).toContain('fs_session=; ');
    expect(sessionCookieHeader(null, 'https://x.example')).toContain('Max-Age=0');
  });
});

describe('the cookie lives no longer than the session unused', () => {
  it('lives 7 days at most, never the 30 of the absolute end', () => {
    expect(sessionCookieHeader('v', 'https://x.example')).toContain(
      `Max-Age=${SESSION_IDLE_SECONDS}`,
    );
    expect(sessionCookieHeader('v', 'https://x.example', SESSION_ABSOLUTE_SECONDS)).toContain(
      `Max-Age=${SESSION_IDLE_SECONDS}`,
    );
    expect(SESSION_IDLE_SECONDS).toBe(7 * 86_400);
  });

  it('renewed on use: until the session would end unused, and less near its absolute end', () => {
    const fresh = { createdAt: start.toISOString(), lastSeenAt: start.toISOString() };
    expect(sessionCookieMaxAge(fresh, start)).toBe(SESSION_IDLE_SECONDS);
    const late = { createdAt: start.toISOString(), lastSeenAt: plus(29 * 86_400).toISOString() };
    expect(sessionCookieMaxAge(late, plus(29 * 86_400))).toBe(86_400);
  });
});

describe('session lifetime: idle 7 days (sliding), 30 days at most', () => {
  const fresh = { createdAt: start.toISOString(), lastSeenAt: start.toISOString() };

  it('ends 7 days after its last use', () => {
    expect(sessionLive(fresh, plus(SESSION_IDLE_SECONDS - 1))).toBe(true);
    expect(sessionLive(fresh, plus(SESSION_IDLE_SECONDS))).toBe(false);
  });

  it('use slides it forward, but never past 30 days from its start', () => {
    const used = { ...fresh, lastSeenAt: plus(29 * 86_400).toISOString() };
    expect(sessionExpiresAt(used).toISOString()).toBe(plus(SESSION_ABSOLUTE_SECONDS).toISOString());
    expect(sessionLive(used, plus(SESSION_ABSOLUTE_SECONDS - 1))).toBe(true);
    expect(sessionLive(used, plus(SESSION_ABSOLUTE_SECONDS))).toBe(false);
  });

  it('writes its last use at most once an hour', () => {
    expect(sessionNeedsTouch(fresh, plus(3599))).toBe(false);
    expect(sessionNeedsTouch(fresh, plus(3600))).toBe(true);
  });
});

describe('a signed-in change must come from the service’s own origin', () => {
  const base = 'https://forms.example.com';

  it('takes Sec-Fetch-Site same-origin, or else an Origin equal to the service’s', () => {
    expect(fromOwnOrigin({ secFetchSite: 'same-origin' }, base)).toBe(true);
    expect(fromOwnOrigin({ origin: 'https://forms.example.com' }, base)).toBe(true);
  });

  it('refuses another site, a sibling subdomain, a missing proof, and a lying Origin beside Sec-Fetch-Site', () => {
    expect(fromOwnOrigin({ secFetchSite: 'cross-site' }, base)).toBe(false);
    expect(fromOwnOrigin({ secFetchSite: 'same-site' }, base)).toBe(false);
    expect(
      fromOwnOrigin({ secFetchSite: 'cross-site', origin: 'https://forms.example.com' }, base),
    ).toBe(false);
    expect(fromOwnOrigin({ origin: 'https://evil.example' }, base)).toBe(false);
    expect(fromOwnOrigin({ origin: 'https://forms.example.com.evil.example' }, base)).toBe(false);
    expect(fromOwnOrigin({ origin: 'null' }, base)).toBe(false);
    expect(fromOwnOrigin({}, base)).toBe(false);
  });
});
