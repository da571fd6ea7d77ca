import { SIGN_IN_TTL_SECONDS } from './sign-in.ts';

/**
 * How often sign-in emails may be asked for, and codes tried. The rules and
 * why they hold: docs/people.md#sign-in-bounds.
 *
 * Emails to one address from one requester (an IPv4 address or IPv6 /64),
 * an hour: what one outsider can make an address receive, and an owner's
 * invitations count here too.
 */
export const SIGN_INS_PER_ADDRESS_AND_IP_PER_HOUR = 5;
/**
 * Emails to one address from everyone together, per window of a link's
 * lifetime: the last bound on a mailbox (4 windows an hour: at most 40
 * emails an hour, from 8 or more networks). Because the window is no longer
 * than a link lives, a request refused by it comes while the link of the
 * last one admitted still works: whoever reads the mailbox can get in.
 */
export const SIGN_INS_PER_ADDRESS_PER_WINDOW = 10;
export const SIGN_IN_ADDRESS_WINDOW_SECONDS = SIGN_IN_TTL_SECONDS;
/** Emails asked for from one requester (one visitor naming many addresses), an hour. */
export const SIGN_INS_PER_IP_PER_HOUR = 30;
/** Verifications per requester a minute: bounds guessing codes across addresses. */
export const VERIFIES_PER_IP_PER_MINUTE = 20;
/**
 * Codes tried for one address an hour, right or wrong, whoever tries and
 * however many codes were sent: guessing a 6-digit code succeeds at most
 * 5 times in a million an hour. Past it no code works until the hour ends;
 * links do.
 */
export const CODE_TRIES_PER_ADDRESS_PER_HOUR = 5;
