/**
 * How often sign-in emails may be asked for: per address (each email brings
 * 5 guesses at its code, so this bounds guessing too) and per IP address
 * (one visitor naming many addresses).
 */
export const SIGN_INS_PER_ADDRESS_PER_HOUR = 5;
export const SIGN_INS_PER_IP_PER_HOUR = 30;
/** Verifications per IP address a minute: bounds guessing codes across addresses. */
export const VERIFIES_PER_IP_PER_MINUTE = 20;
