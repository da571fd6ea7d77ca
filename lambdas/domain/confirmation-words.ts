/**
 * The words a visitor sees after a post that waits for confirmation by email
 * (docs/submit.md#confirm-by-email): the same on the thank-you page, the
 * hosted page, the embed and the pasted form's script. A file of its own, so
 * the browser's script takes these words without the token's crypto.
 */
export const CHECK_YOUR_INBOX = 'Check your inbox to confirm your answer.';
