import { describe, expect, it } from 'vitest';
import {
  type DispatchTarget,
  dispatchedMessage,
  MAX_DISPATCHED_BYTES,
  projectedRecord,
  type StreamRecord,
  targetsOf,
} from '#domain/stream-dispatch.ts';
import { dispatched } from '#workers';

const formId = '0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10';

function record(
  eventName: StreamRecord['eventName'],
  images: { NewImage?: Record<string, unknown>; OldImage?: Record<string, unknown> },
  sk = 'FORM',
): StreamRecord {
  return {
    eventID: 'c81e728d9d4c2f636f067f89cc14862c',
    eventName,
    dynamodb: {
      Keys: { pk: { S: `FORM#${formId}` }, sk: { S: sk } },
      SequenceNumber: '4000000000000012345678',
      ApproximateCreationDateTime: 1_764_000_000,
      ...(images as StreamRecord['dynamodb']),
    },
  };
}

const formItem = (extra: Record<string, unknown> = {}) => ({
  id: { S: formId },
  entity: { S: 'form' },
  name: { S: 'Contact' },
  fields: { L: [{ M: { id: { S: 'message' } } }] },
  ...extra,
});

const submissionItem = (spam: boolean) => ({
  id: { S: '019a0000-0000-7000-8000-000000000000' },
  formId: { S: formId },
  entity: { S: 'submission' },
  isSpam: { BOOL: spam },
  data: { M: { message: { S: 'x'.repeat(300_000) } } },
});

const names = (targets: readonly { name: string }[]) => targets.map((target) => target.name);

describe('which dispatched workers a record goes to', () => {
  it('each kind of record to exactly the workers that want it', () => {
    expect(names(targetsOf(record('REMOVE', { OldImage: formItem() }), dispatched))).toEqual([
      'formPurger',
    ]);
    expect(
      names(
        targetsOf(record('INSERT', { NewImage: submissionItem(true) }, 'SUB#019a0000'), dispatched),
      ),
    ).toEqual(['spamPurger']);
    expect(
      targetsOf(record('INSERT', { NewImage: submissionItem(false) }, 'SUB#019a0000'), dispatched),
    ).toEqual([]);
    expect(
      names(
        targetsOf(
          record('MODIFY', {
            OldImage: formItem(),
            NewImage: formItem({ retentionDays: { N: '30' } }),
          }),
          dispatched,
        ),
      ),
    ).toEqual(['retentionApplier']);
    // A form written with no retention, and a removed submission, go to nobody.
    expect(targetsOf(record('MODIFY', { NewImage: formItem() }), dispatched)).toEqual([]);
    expect(
      targetsOf(record('REMOVE', { OldImage: submissionItem(true) }, 'SUB#1'), dispatched),
    ).toEqual([]);
  });
});

describe('the message a dispatched worker gets', () => {
  const spamPurger = dispatched.find((d) => d.name === 'spamPurger')!;
  const retention = dispatched.find((d) => d.name === 'retentionApplier')!;

  it('is the stream record with its images cut to the declared attributes, grouped by item, deduplicated by eventID', () => {
    const inserted = record('INSERT', { NewImage: submissionItem(true) }, 'SUB#019a0000');
    const message = dispatchedMessage(inserted, spamPurger);
    expect(message.groupId).toBe(`FORM#${formId}`);
    expect(message.deduplicationId).toBe('c81e728d9d4c2f636f067f89cc14862c');
    // A 300 KB submission goes as a few hundred bytes: only `formId` of its image.
    expect(message.body.length).toBeLessThan(400);
    expect(JSON.parse(message.body)).toEqual({
      eventID: inserted.eventID,
      eventName: 'INSERT',
      dynamodb: {
        Keys: inserted.dynamodb!.Keys,
        SequenceNumber: '4000000000000012345678',
        ApproximateCreationDateTime: 1_764_000_000,
        NewImage: { formId: { S: formId } },
      },
    });
  });

  it('keeps both images, each cut, and leaves out an attribute an image lacks', () => {
    const changed = record('MODIFY', {
      OldImage: formItem(),
      NewImage: formItem({ retentionDays: { N: '7' } }),
    });
    expect(projectedRecord(changed, retention.trigger.attributes).dynamodb).toMatchObject({
      OldImage: { id: { S: formId } },
      NewImage: { id: { S: formId }, retentionDays: { N: '7' } },
    });
  });

  it('refuses a record whose declared attributes are over 16 KB, or that has no key or eventID', () => {
    const greedy: DispatchTarget = {
      name: 'greedy',
      trigger: { filter: {}, queue: 'spamPurges', attributes: ['data'] },
    };
    const inserted = record('INSERT', { NewImage: submissionItem(true) }, 'SUB#019a0000');
    expect(() => dispatchedMessage(inserted, greedy)).toThrow(`for greedy is 300` /* bytes… */);
    expect(MAX_DISPATCHED_BYTES).toBe(16 * 1024);
    expect(() => dispatchedMessage({ ...inserted, eventID: undefined }, spamPurger)).toThrow(
      'without a partition key or eventID',
    );
    expect(() =>
      dispatchedMessage({ ...inserted, dynamodb: { ...inserted.dynamodb, Keys: {} } }, spamPurger),
    ).toThrow('without a partition key or eventID');
  });
});
