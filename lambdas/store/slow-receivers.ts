import { integrationKey, webhookKey } from './keys.ts';
import { updateIf } from './retries.ts';

/**
 * The hold on a slow receiver (docs/delivery.md#a-slow-receiver): a
 * `slowUntil` time on the form's webhook item or on the Slack or Discord
 * integration's item, written with conditional updates, so concurrent
 * deliveries agree on who takes the one turn. Only while the receiver is
 * still connected (a removed one is not brought back).
 */

/** The receiver a message of the webhooks queue goes to. */
export type Receiver = 'webhook' | 'slack' | 'discord';

const keyOf = (formId: string, receiver: Receiver) =>
  receiver === 'webhook' ? webhookKey(formId) : integrationKey(formId, receiver);

/** Holds the receiver until `until`, never shortening a later hold. */
export function holdReceiver(formId: string, receiver: Receiver, until: string): Promise<boolean> {
  return updateIf({
    Key: keyOf(formId, receiver),
    UpdateExpression: 'SET slowUntil = :until',
    ConditionExpression:
      'attribute_exists(pk) AND (attribute_not_exists(slowUntil) OR slowUntil < :until)',
    ExpressionAttributeValues: { ':until': until },
  });
}

/**
 * Takes the held receiver's one turn until `leaseUntil`: true when the hold
 * (or the last turn) is over and no other delivery took the turn first.
 */
export function takeReceiverTurn(
  formId: string,
  receiver: Receiver,
  now: Date,
  leaseUntil: string,
): Promise<boolean> {
  return updateIf({
    Key: keyOf(formId, receiver),
    UpdateExpression: 'SET slowUntil = :lease',
    ConditionExpression:
      'attribute_exists(pk) AND (attribute_not_exists(slowUntil) OR slowUntil <= :now)',
    ExpressionAttributeValues: { ':lease': leaseUntil, ':now': now.toISOString() },
  });
}

/** The receiver answered quickly: no longer held. */
export function releaseReceiver(formId: string, receiver: Receiver): Promise<boolean> {
  return updateIf({
    Key: keyOf(formId, receiver),
    UpdateExpression: 'REMOVE slowUntil',
    ConditionExpression: 'attribute_exists(slowUntil)',
  });
}
