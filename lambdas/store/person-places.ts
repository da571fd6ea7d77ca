import { personPlaceKey } from './keys.ts';
import type { TableTransactItem } from './table.ts';

/**
 * One answer per person (docs/forms.md#one-answer-per-person): the item
 * that holds a person's place on a form, keyed by the keyed hash of their
 * mailbox (never the address), naming the submission that holds it. It is
 * written only by a transaction that also writes that submission, and
 * deleted only with it, so the place is taken exactly while its submission
 * exists.
 */
export interface PersonPlace {
  formId: string;
  /** personPlaceHash of the mailbox (lambdas/domain/unique-person.ts). */
  hash: string;
  /** The submission that takes the place: its deletion frees it. */
  submissionId: string;
}

/**
 * Adds the Put that takes a person's place to a transaction, on condition
 * that nobody holds it, and answers its position in `items`: a
 * `ConditionalCheckFailed` there means the person has already answered. The
 * submit path's storing transaction and the confirmation's click both use it;
 * the submission written beside it keeps the hash (`personHash`) so its
 * deletion frees the place (personPlaceRelease).
 */
export function addPersonPlace(items: TableTransactItem[], place: PersonPlace): number {
  return (
    items.push({
      Put: {
        Item: {
          ...personPlaceKey(place.formId, place.hash),
          entity: 'personPlace',
          submissionId: place.submissionId,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }) - 1
  );
}

/**
 * The Delete that frees a place with its submission's deletion: only the
 * place this submission holds. The condition holds when the place is gone
 * already, and fails when another submission holds it: the caller then
 * leaves that place out and tries again.
 */
export function personPlaceRelease(place: PersonPlace): TableTransactItem {
  return {
    Delete: {
      Key: personPlaceKey(place.formId, place.hash),
      ConditionExpression: 'attribute_not_exists(pk) OR submissionId = :submissionId',
      ExpressionAttributeValues: { ':submissionId': place.submissionId },
    },
  };
}
