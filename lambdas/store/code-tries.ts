import { createHash } from 'node:crypto';
import { type RateWindow, windowAt } from '#domain/rate-limit.ts';
import { CODE_TRIES_PER_ADDRESS_PER_HOUR } from '#domain/sign-in-limits.ts';
import { admitRequest, uncountRequest } from './request-counts.ts';

/**
 * Codes tried for one address an hour, whoever tries
 * (docs/people.md#sign-in-bounds). Apart from the other sign-in windows,
 * which parse requesters' addresses: the sign-in worker stores codes
 * without that parser in its bundle. The address is hashed: none in a key.
 */
export function codeTriesScope(email: string): string {
  return `SIGNIN-CODES#${createHash('sha256').update(email).digest('hex')}`;
}

/** The hour in which codes tried for an address are counted. */
export function codeTriesWindow(now: number): RateWindow {
  return windowAt(now, 3600);
}

/** Counts one code tried for `email`: true while within the hour's tries. */
export function countCodeTry(email: string, window: RateWindow): Promise<boolean> {
  return admitRequest(codeTriesScope(email), window, CODE_TRIES_PER_ADDRESS_PER_HOUR);
}

/** Gives a right code's try back: the hourly tries bound wrong codes. */
export async function returnCodeTry(email: string, window: RateWindow): Promise<void> {
  await uncountRequest(codeTriesScope(email), window);
}
