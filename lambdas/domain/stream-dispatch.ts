import { type FilterPattern, matchesPattern } from './event-filter.ts';

/**
 * What the stream dispatcher hands a dispatched worker
 * (docs/architecture.md#workers): the table-stream record as Lambda gives
 * it, its images cut to the attributes the worker declares, as the body of
 * one message on the worker's FIFO queue. Pure: the dispatcher sends what
 * this returns, the worker parses the body back into a record.
 */

/** One attribute of a stream image, in DynamoDB's JSON (`{ S: "…" }`, `{ N: "…" }`, …). */
export type ImageValue = { readonly [type: string]: unknown };
export type Image = { readonly [attribute: string]: ImageValue };

/** A table-stream record, the parts a dispatched message keeps (Lambda's DynamoDBRecord shape). */
export interface StreamRecord {
  eventID?: string;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE';
  dynamodb?: {
    Keys?: Image;
    NewImage?: Image;
    OldImage?: Image;
    SequenceNumber?: string;
    ApproximateCreationDateTime?: number;
  };
}

/** A consumer as the dispatcher sees it: what it wants and where it goes. */
export interface DispatchTarget {
  name: string;
  trigger: { filter: FilterPattern; queue: string; attributes: readonly string[] };
}

/**
 * A dispatched message's body at most: far below SQS's 256 KB, as a
 * worker declares a few small attributes (an id, a number of days). A
 * record over it is a worker asking for too much, refused at dispatch.
 */
export const MAX_DISPATCHED_BYTES = 16 * 1024;

/** The consumers whose filter takes the record, in the order given. */
export function targetsOf<T extends DispatchTarget>(
  record: StreamRecord,
  targets: readonly T[],
): T[] {
  return targets.filter((target) => matchesPattern(record, target.trigger.filter));
}

/** The image with only `attributes` (those it has). */
function project(image: Image, attributes: readonly string[]): Image {
  return Object.fromEntries(
    attributes.flatMap((name) => (image[name] === undefined ? [] : [[name, image[name]]])),
  );
}

/** The record as a worker declaring `attributes` receives it. */
export function projectedRecord(record: StreamRecord, attributes: readonly string[]): StreamRecord {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    dynamodb: {
      Keys: data.Keys,
      SequenceNumber: data.SequenceNumber,
      ApproximateCreationDateTime: data.ApproximateCreationDateTime,
      ...(data.NewImage ? { NewImage: project(data.NewImage, attributes) } : {}),
      ...(data.OldImage ? { OldImage: project(data.OldImage, attributes) } : {}),
    },
  };
}

/** One message of a FIFO queue: its body, group and deduplication id. */
export interface DispatchedMessage {
  body: string;
  /** The item's partition key: one item's changes are received in the stream's order. */
  groupId: string;
  /** The stream record's eventID: SQS drops a retried dispatch of it within 5 minutes. */
  deduplicationId: string;
}

/** The message handing `record` to `target`; throws when it cannot be one. */
export function dispatchedMessage(record: StreamRecord, target: DispatchTarget): DispatchedMessage {
  const groupId = record.dynamodb?.Keys?.pk?.S;
  const deduplicationId = record.eventID;
  if (typeof groupId !== 'string' || groupId === '' || !deduplicationId) {
    throw new Error(`a record for ${target.name} without a partition key or eventID`);
  }
  const body = JSON.stringify(projectedRecord(record, target.trigger.attributes));
  const bytes = new TextEncoder().encode(body).length;
  if (bytes > MAX_DISPATCHED_BYTES) {
    throw new Error(
      `record ${deduplicationId} for ${target.name} is ${bytes} bytes with its declared attributes, over ${MAX_DISPATCHED_BYTES}`,
    );
  }
  // SQS takes group and deduplication ids of up to 128 characters.
  return { body, groupId: groupId.slice(0, 128), deduplicationId: deduplicationId.slice(0, 128) };
}
