import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import {
  hashCode,
  hashSecret,
  type IssuedSignIn,
  NO_CODE_HASH,
  SIGN_IN_TTL_SECONDS,
  sameHash,
} from '#domain/sign-in.ts';
import type { SignInFailure } from '#domain/sign-in-job.ts';
import { documents } from './client.ts';
import { codeTriesWindow, countCodeTry, returnCodeTry } from './code-tries.ts';
import { signInKey, signInTokenKey } from './keys.ts';
import { getItem, transact } from './table.ts';

/**
 * Each sign-in email has its link's item (token hash → address, when it
 * ends, when it was used), and the address has one code item: the newest
 * email's code hash and its link's token hash. A newer email replaces the
 * code, never an earlier link: an outsider asking again cannot take away a
 * link the member already has (docs/people.md#sign-in-bounds). Using a
 * link or a code marks the email's link used under a condition, so of
 * verifies racing on one email's link and code exactly one succeeds; the
 * code item goes with it.
 */

/** A used or ended link is kept this long after it ends, to tell a late or repeated use. */
const LINK_KEPT_SECONDS = 86_400;

export async function putSignIn(email: string, issued: IssuedSignIn, now: Date): Promise<void> {
  const endsAt = now.getTime() + SIGN_IN_TTL_SECONDS * 1000;
  const expiresAt = Math.ceil(endsAt / 1000);
  await transact([
    {
      Put: {
        Item: {
          ...signInKey(email),
          entity: 'signIn',
          email,
          tokenHash: issued.tokenHash,
          codeHash: issued.codeHash,
          endsAt,
          expiresAt,
        },
      },
    },
    {
      Put: {
        Item: {
          ...signInTokenKey(issued.tokenHash),
          entity: 'signInToken',
          email,
          endsAt,
          expiresAt: expiresAt + LINK_KEPT_SECONDS,
        },
      },
    },
  ]);
}

/**
 * An invitation's link (docs/people.md#invitations): only the link's item,
 * ending `ttlSeconds` from now; the address's code is left as it is, as an
 * invitation carries no code.
 */
export async function putInvitationLink(
  email: string,
  tokenHash: string,
  now: Date,
  ttlSeconds: number,
): Promise<Date> {
  const endsAt = now.getTime() + ttlSeconds * 1000;
  await documents.send(
    new PutCommand({
      TableName: config.tableName,
      Item: {
        ...signInTokenKey(tokenHash),
        entity: 'signInToken',
        email,
        endsAt,
        expiresAt: Math.ceil(endsAt / 1000) + LINK_KEPT_SECONDS,
      },
    }),
  );
  return new Date(endsAt);
}

export type LinkUse =
  | { outcome: 'signed_in'; email: string }
  /** A token that names no link (never issued, or gone a day after it ended). */
  | { outcome: 'unknown' }
  | { outcome: Extract<SignInFailure, 'link_expired' | 'link_used'>; email: string };

/** Marks a link used, once and before it ends: false when it was used, ended or is unknown. */
async function markLinkUsed(tokenHash: string, now: Date): Promise<boolean> {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: signInTokenKey(tokenHash),
        UpdateExpression: 'SET usedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND attribute_not_exists(usedAt) AND endsAt > :now',
        ExpressionAttributeValues: { ':now': now.getTime() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Deletes the address's code item if it still is the one `condition` names (not a newer email's). */
async function consumeCode(
  email: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  try {
    await documents.send(
      new DeleteCommand({
        TableName: config.tableName,
        Key: signInKey(email),
        ConditionExpression: `attribute_exists(pk) AND endsAt > :now AND ${condition}`,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Uses a link's token once. Wrong codes and newer emails leave a link alone;
 * only its own use, its code's use or its end stop it.
 */
export async function useSignInToken(token: string, now: Date): Promise<LinkUse> {
  const tokenHash = hashSecret(token);
  const link = await getItem(signInTokenKey(tokenHash), { consistent: true });
  if (!link) return { outcome: 'unknown' };
  const email = String(link.email);
  if (!(await markLinkUsed(tokenHash, now))) {
    // Still within its time, it lost to another use (perhaps racing this one).
    const ended = !(Number(link.endsAt ?? 0) > now.getTime());
    return { outcome: ended && link.usedAt === undefined ? 'link_expired' : 'link_used', email };
  }
  // The code sent with this link goes with it (unless a newer email's has replaced it).
  await consumeCode(email, 'tokenHash = :token', { ':token': tokenHash, ':now': now.getTime() });
  return { outcome: 'signed_in', email };
}

export type CodeCheck = 'signed_in' | Extract<SignInFailure, 'wrong_code' | 'too_many_codes'>;

/**
 * Checks a code for an address: `signed_in` once (for exactly one of racing
 * verifies), `too_many_codes` past the address's hourly tries, else
 * `wrong_code` (wrong, replaced, ended or none pending). Every try counts
 * first, so racing guesses are bounded too. Whether or not the address has
 * a code pending, or belongs to anyone, a failure makes the same two calls
 * and the same hashing (docs/people.md#sign-in-bounds).
 */
export async function useSignInCode(email: string, code: string, now: Date): Promise<CodeCheck> {
  const window = codeTriesWindow(now.getTime());
  const [admitted, pending] = await Promise.all([
    countCodeTry(email, window),
    getItem(signInKey(email), { consistent: true }),
  ]);
  const live = pending !== undefined && Number(pending.endsAt) > now.getTime();
  const stored = live ? String(pending.codeHash) : NO_CODE_HASH;
  const matches = sameHash(hashCode(email, code), stored);
  if (!admitted) return 'too_many_codes';
  if (!matches) return 'wrong_code';
  // Marking the email's link used is the one write that decides: of racing
  // verifies by this code or by its link, exactly one succeeds.
  if (!(await markLinkUsed(String(pending?.tokenHash), now))) return 'wrong_code';
  await consumeCode(email, 'codeHash = :code', { ':code': stored, ':now': now.getTime() });
  await returnCodeTry(email, window);
  return 'signed_in';
}
