import type { DynamoDBRecord } from 'aws-lambda';
import { batchGetImages } from './batches.ts';
import { formKey, submissionKey, submissionSortKeyFrom, submissionSortKeyUpTo } from './keys.ts';
import { queryPages } from './table.ts';

/**
 * What a replay of the stream's work reads (docs/operations.md#replaying-the-stream):
 * a form's submissions received in a time range, from the form's own
 * partition (its sort keys are time-ordered ids: a range of keys, never a
 * Scan), and each of them as the INSERT record the stream gave when it was
 * stored, its image the item as it is now.
 */

/** The ids of the form's submissions received in [from, to), oldest first, a page at a time. */
export async function* submissionIdsReceivedBetween(
  formId: string,
  from: string,
  to: string,
): AsyncGenerator<string[]> {
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': formKey(formId).pk,
      ':from': submissionSortKeyFrom(from),
      // The bound includes `to`'s millisecond; createdAt then leaves it out.
      ':to': submissionSortKeyUpTo(to),
    },
    ProjectionExpression: 'id, createdAt',
  });
  for await (const items of pages) {
    const ids = items
      .filter((item) => {
        const at = item.createdAt as string | undefined;
        return at !== undefined && at >= from && at < to;
      })
      .map((item) => item.id as string);
    if (ids.length > 0) yield ids;
  }
}

/**
 * The submissions still stored among `submissionIds` (at most 100), each as
 * an INSERT record whose eventID names the replay of that submission.
 */
export async function replayedInserts(
  formId: string,
  submissionIds: readonly string[],
): Promise<DynamoDBRecord[]> {
  const images = await batchGetImages(
    submissionIds.map((id) => submissionKey(formId, id)),
    { consistent: true },
  );
  const byId = new Map(images.map((image) => [image.id?.S, image]));
  return submissionIds.flatMap((id): DynamoDBRecord[] => {
    const image = byId.get(id);
    if (image?.entity?.S !== 'submission') return [];
    const createdAt = Date.parse(image.createdAt?.S ?? '');
    return [
      {
        eventID: `replay-${id}`,
        eventName: 'INSERT',
        eventSource: 'aws:dynamodb',
        dynamodb: {
          Keys: { pk: { S: formKey(formId).pk }, sk: { S: submissionKey(formId, id).sk } },
          NewImage: image as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
          ...(Number.isFinite(createdAt)
            ? { ApproximateCreationDateTime: Math.floor(createdAt / 1000) }
            : {}),
        },
      },
    ];
  });
}
