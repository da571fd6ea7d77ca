import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { EmailMessage } from './email-messages.ts';
import { html } from './html.ts';

/**
 * Email sign-in: a one-time link (a 256-bit token) and a 6-digit code for
 * another device, both valid 15 minutes and used once. Each email's link
 * stays valid whatever comes after it; its code only until a newer email's
 * code replaces it, and only within the address's hourly tries
 * (docs/people.md#sign-in-bounds). Only SHA-256 hashes are stored, and
 * comparisons take constant time.
 */
export const SIGN_IN_TTL_SECONDS = 15 * 60;

export interface IssuedSignIn {
  token: string;
  code: string;
  tokenHash: string;
  codeHash: string;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The stored hash of a code is keyed by its address: a code alone names no sign-in. */
export function hashCode(email: string, code: string): string {
  return hashSecret(`${email}\n${code}`);
}

export function issueSignIn(email: string): IssuedSignIn {
  const token = randomBytes(32).toString('base64url');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { token, code, tokenHash: hashSecret(token), codeHash: hashCode(email, code) };
}

/**
 * What a code is compared with when the address has none pending: a hash no
 * code has, so a wrong code costs the same hashing and comparing whether or
 * not the address is a member's (docs/people.md#sign-in-bounds).
 */
export const NO_CODE_HASH = '0'.repeat(64);

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A token as a link carries it: 43 base64url characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const CODE_PATTERN = /^\d{6}$/;

/**
 * The sign-in email. The link points at the deployment's configured base
 * URL, never at a host a caller named; the code is for signing in on
 * another device than the one that reads the mail.
 */
export function signInEmail(input: {
  to: string;
  baseUrl: string;
  token: string;
  code: string;
  teamNames: string[];
}): EmailMessage {
  const link = `${input.baseUrl}/app/sign-in#token=${input.token}`;
  const teams =
    input.teamNames.length === 1
      ? `the team ${input.teamNames[0]}`
      : `your ${input.teamNames.length} teams`;
  const text = [
    `Sign in to ${teams}:`,
    '',
    link,
    '',
    `Or enter this code on the sign-in page: ${input.code}`,
    '',
    'The link and the code work once, for 15 minutes. If you did not ask to sign in, ignore this email.',
  ].join('\n');
  const page = html`<!doctype html><html><body style="font-family:sans-serif">
<p>Sign in to ${teams}:</p>
<p><a href="${link}">Sign in</a></p>
<p>Or enter this code on the sign-in page: <strong style="font-size:1.4em;letter-spacing:0.1em">${input.code}</strong></p>
<p>The link and the code work once, for 15 minutes. If you did not ask to sign in, ignore this email.</p>
</body></html>`;
  return {
    to: input.to,
    fromName: 'Form service',
    subject: `Your sign-in code: ${input.code}`,
    text,
    html: page.text,
    autoSubmitted: 'auto-generated',
  };
}
