import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '#config';
import type { Member } from '#domain/members.ts';
import { issueSession, sessionCookieHeader } from '#domain/sessions.ts';
import { header, sourceIpOf } from '#http/request.ts';
import { putSession } from '#store/sessions.ts';

/**
 * Starts a session for `member` and gives its Set-Cookie header; undefined
 * when the member was removed or changed role meanwhile.
 */
export async function startSession(
  member: Member,
  event: APIGatewayProxyEvent,
  now: Date,
): Promise<{ sessionId: string; setCookie: string } | undefined> {
  const { cookieValue, session } = issueSession({
    member,
    now,
    ip: sourceIpOf(event),
    userAgent: header(event, 'user-agent') ?? null,
  });
  if (!(await putSession(session))) return undefined;
  return {
    sessionId: session.sessionId,
    setCookie: sessionCookieHeader(cookieValue, config.baseUrl),
  };
}
