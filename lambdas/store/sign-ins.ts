import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import {
  hashCode,
  hashSecret,
  type IssuedSignIn,
  MAX_CODE_ATTEMPTS,
  SIGN_IN_TTL_SECONDS,
  sameHash,
} from '#domain/sign-in.ts';
import { batchWriteAll } from './batches.ts';
import { documents } from './client.ts';
import { signInKey, signInTokenKey } from './keys.ts';
import { getItem, transact } from './table.ts';

/**
 * A pending sign-in is two items: the address's (its code's hash, the
 * link's token hash, wrong guesses so far, when it ends) and the link's
 * (token hash → address). A newer sign-in of the address replaces the
 * older, whose link and code then no longer work. Using a link or a code
 * deletes the address's item under a condition, so of two verifies racing
 * on one secret exactly one succeeds.
 */

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
          attempts: 0,
          endsAt,
          expiresAt,
        },
      },
    },
    {
      Put: {
        Item: { ...signInTokenKey(issued.tokenHash), entity: 'signInToken', email, expiresAt },
      },
    },
  ]);
}

/** Deletes the address's pending sign-in if it is still the one `condition` names. */
async function consume(
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

/** The address a link's token signs in, once: undefined when unknown, used, replaced or ended. */
export async function useSignInToken(token: string, now: Date): Promise<string | undefined> {
  const tokenHash = hashSecret(token);
  const link = await getItem(signInTokenKey(tokenHash), { consistent: true });
  if (!link) return undefined;
  const email = String(link.email);
  const used = await consume(email, 'tokenHash = :token', {
    ':token': tokenHash,
    ':now': now.getTime(),
  });
  await batchWriteAll([{ DeleteRequest: { Key: signInTokenKey(tokenHash) } }]);
  return used ? email : undefined;
}

export type CodeCheck = 'signed_in' | 'wrong' | 'void';

/**
 * Checks a code for an address: `signed_in` (once, for exactly one of racing
 * verifies), `wrong` (counted; the fifth wrong guess voids the sign-in), or
 * `void` (no pending sign-in, ended, or out of guesses).
 */
export async function useSignInCode(email: string, code: string, now: Date): Promise<CodeCheck> {
  let counted: Record<string, unknown> | undefined;
  try {
    // Counting the guess first bounds guesses even when they race.
    ({ Attributes: counted } = await documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: signInKey(email),
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'attribute_exists(pk) AND attempts < :max AND endsAt > :now',
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_CODE_ATTEMPTS, ':now': now.getTime() },
        ReturnValues: 'ALL_NEW',
      }),
    ));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'void';
    throw error;
  }
  const stored = String(counted?.codeHash ?? '');
  if (!sameHash(hashCode(email, code), stored)) {
    if (Number(counted?.attempts) >= MAX_CODE_ATTEMPTS) await voidSignIn(email, counted);
    return 'wrong';
  }
  const used = await consume(email, 'codeHash = :code', {
    ':code': stored,
    ':now': now.getTime(),
  });
  if (!used) return 'void';
  await batchWriteAll([{ DeleteRequest: { Key: signInTokenKey(String(counted?.tokenHash)) } }]);
  return 'signed_in';
}

/** Out of guesses: the sign-in (only this one, not a newer) and its link end. */
async function voidSignIn(email: string, pending: Record<string, unknown> | undefined) {
  const tokenHash = String(pending?.tokenHash);
  await consume(email, 'tokenHash = :token', { ':token': tokenHash, ':now': 0 });
  await batchWriteAll([{ DeleteRequest: { Key: signInTokenKey(tokenHash) } }]);
}
