import { createTeam } from './admin.ts';
import { api, stack } from './api.ts';
import { emailsTo, eventually } from './delivery.ts';
import { freshVisitor, type SubmitResponse, submit } from './submit.ts';

/** A team of its own whose owner has an address no other test uses. */
export async function teamWithOwner(plan: 'free' | 'pro' = 'pro') {
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const created = await createTeam({ name: `Team ${email}`, ownerEmail: email, plan });
  return { ...created, email };
}

export interface SignInEmail {
  token: string;
  code: string;
}

/** How many sign-in emails `to` has had so far. */
export async function signInEmailsTo(to: string): Promise<number> {
  return (await emailsTo(to)).filter((email) => email.subject.startsWith('Your sign-in code'))
    .length;
}

/** The newest sign-in email `to` got after `seen` earlier ones, with its link's token and code. */
export async function signInEmailTo(to: string, seen = 0): Promise<SignInEmail> {
  const signIns = async () =>
    (await emailsTo(to)).filter((email) => email.subject.startsWith('Your sign-in code'));
  const emails = await eventually(signIns, (list) => list.length > seen);
  const text = emails.at(-1)?.body.text ?? '';
  const token = /#token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const code = /code on the sign-in page: (\d{6})/.exec(text)?.[1];
  if (!token || !code) throw new Error(`no sign-in email for ${to}: ${JSON.stringify(emails)}`);
  return { token, code };
}

/** Invitation emails `to` has had so far (docs/people.md#invitations). */
export async function invitationsTo(to: string) {
  return (await emailsTo(to)).filter((email) => / invited you to the team /.test(email.subject));
}

/** The newest invitation `to` got after `seen` earlier ones, with its link's token. */
export async function invitationTo(to: string, seen = 0) {
  const emails = await eventually(
    () => invitationsTo(to),
    (list) => list.length > seen,
  );
  const email = emails.at(-1);
  const token = /#token=([A-Za-z0-9_-]{43})/.exec(email?.body.text ?? '')?.[1];
  if (!email || !token) throw new Error(`no invitation for ${to}: ${JSON.stringify(emails)}`);
  return { token, email };
}

/**
 * A sign-in request over real HTTP, from `from` (a loopback address; each
 * call a person of its own unless told): sign-in and verification are
 * limited per IP address, and one test must not use up another's.
 */
export function authPost(
  path: '/v1/auth/sign-in' | '/v1/auth/verify',
  body: unknown,
  from = freshVisitor(),
): Promise<SubmitResponse> {
  return submit('', { path, json: body, from });
}

/** Asks for a sign-in email and returns it. */
export async function requestSignIn(email: string): Promise<SignInEmail> {
  const seen = await signInEmailsTo(email);
  const asked = await authPost('/v1/auth/sign-in', { email });
  if (asked.status !== 202) throw new Error(`sign-in answered ${asked.status}: ${asked.text}`);
  return signInEmailTo(email, seen);
}

/** The Set-Cookie header of a response, as one string. */
export function setCookieOf(response: SubmitResponse): string {
  const header = response.headers['set-cookie'];
  return (Array.isArray(header) ? header[0] : header) ?? '';
}

/** The session cookie (`name=value`) a response sets. */
export function cookieOf(response: SubmitResponse): string {
  const pair = setCookieOf(response).split(';')[0];
  if (!pair?.startsWith('fs_session=')) throw new Error(`no session cookie in ${response.text}`);
  return pair;
}

export function verify(body: Record<string, unknown>, from?: string) {
  return authPost('/v1/auth/verify', body, from);
}

/** Signs `email` in by its code; returns the cookie to send. */
export async function signedIn(email: string, teamId?: string): Promise<string> {
  const { code } = await requestSignIn(email);
  const response = await verify({ email, code, ...(teamId ? { teamId } : {}) });
  if (response.status !== 200) {
    throw new Error(`verify answered ${response.status}: ${response.text}`);
  }
  return cookieOf(response);
}

/**
 * A request with a session cookie, from the dashboard's own origin unless
 * `headers` say otherwise (a browser sends Sec-Fetch-Site itself).
 */
export function asMember(
  cookie: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  return api(method, path, {
    key: null,
    body: options.body,
    headers: {
      cookie,
      'sec-fetch-site': 'same-origin',
      origin: new URL(stack().baseUrl).origin,
      ...options.headers,
    },
  });
}
