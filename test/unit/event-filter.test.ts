import { describe, expect, it } from 'vitest';
import { coveringPatterns, covers, matchesPattern } from '#domain/event-filter.ts';
import {
  INSERTED_SPAM_PATTERN,
  INSERTED_SUBMISSION_PATTERN,
  REMOVED_FORM_PATTERN,
  RETAINING_FORM_PATTERN,
  SUBMISSION_CHANGE_PATTERN,
} from '#store/schema.ts';

const record = (eventName: string, entity?: string) => ({
  eventName,
  dynamodb: { NewImage: entity === undefined ? {} : { entity: { S: entity } } },
});

describe('Lambda event filter patterns', () => {
  it('the stream pattern keeps inserted submissions only', () => {
    expect(matchesPattern(record('INSERT', 'submission'), INSERTED_SUBMISSION_PATTERN)).toBe(true);
    expect(matchesPattern(record('MODIFY', 'submission'), INSERTED_SUBMISSION_PATTERN)).toBe(false);
    expect(matchesPattern(record('INSERT', 'form'), INSERTED_SUBMISSION_PATTERN)).toBe(false);
    expect(matchesPattern(record('INSERT'), INSERTED_SUBMISSION_PATTERN)).toBe(false);
    expect(matchesPattern({ eventName: 'REMOVE' }, INSERTED_SUBMISSION_PATTERN)).toBe(false);
  });

  it('supports prefix, exists, anything-but and numeric rules', () => {
    expect(matchesPattern({ a: 'SUB#1' }, { a: [{ prefix: 'SUB#' }] })).toBe(true);
    expect(matchesPattern({ a: 'FORM' }, { a: [{ prefix: 'SUB#' }] })).toBe(false);
    expect(matchesPattern({}, { a: [{ exists: false }] })).toBe(true);
    expect(matchesPattern({ a: 1 }, { a: [{ exists: false }] })).toBe(false);
    expect(matchesPattern({ a: 'x' }, { a: [{ exists: true }] })).toBe(true);
    expect(matchesPattern({ a: 'x' }, { a: [{ 'anything-but': ['x'] }] })).toBe(false);
    expect(matchesPattern({ a: 'y' }, { a: [{ 'anything-but': ['x'] }] })).toBe(true);
    expect(matchesPattern({ a: 5 }, { a: [{ numeric: ['>', 1, '<=', 5] }] })).toBe(true);
    expect(matchesPattern({ a: 6 }, { a: [{ numeric: ['>', 1, '<=', 5] }] })).toBe(false);
  });

  it('matches an array value when any element matches', () => {
    expect(matchesPattern({ tags: ['a', 'b'] }, { tags: ['b'] })).toBe(true);
    expect(matchesPattern({ tags: ['a'] }, { tags: ['b'] })).toBe(false);
  });
});

describe('patterns covering others (the stream dispatcher’s one mapping for several consumers)', () => {
  it('a pattern covers one that asks the same and more; not the other way round', () => {
    expect(covers(INSERTED_SUBMISSION_PATTERN, INSERTED_SPAM_PATTERN)).toBe(true);
    expect(covers(INSERTED_SPAM_PATTERN, INSERTED_SUBMISSION_PATTERN)).toBe(false);
    expect(covers(INSERTED_SUBMISSION_PATTERN, REMOVED_FORM_PATTERN)).toBe(false);
    expect(covers(REMOVED_FORM_PATTERN, REMOVED_FORM_PATTERN)).toBe(true);
    // Fewer allowed values are narrower; a rule compares whole.
    expect(covers({ a: ['x', 'y'] }, { a: ['x'] })).toBe(true);
    expect(covers({ a: ['x'] }, { a: ['x', 'y'] })).toBe(false);
    expect(covers({ a: [{ prefix: 'S' }] }, { a: [{ prefix: 'S' }], b: ['1'] })).toBe(true);
    expect(covers({ a: [{ prefix: 'S' }] }, { a: [{ prefix: 'SU' }] })).toBe(false);
    expect(covers({ a: { b: ['x'] } }, { a: ['x'] })).toBe(false);
  });

  it('whatever a covered pattern takes, its cover takes too', () => {
    const records = [
      { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'submission' } } } },
      {
        eventName: 'INSERT',
        dynamodb: { NewImage: { entity: { S: 'submission' }, isSpam: { BOOL: true } } },
      },
      { eventName: 'MODIFY', dynamodb: { NewImage: { entity: { S: 'submission' } } } },
    ];
    for (const record of records) {
      if (matchesPattern(record, INSERTED_SPAM_PATTERN)) {
        expect(matchesPattern(record, INSERTED_SUBMISSION_PATTERN)).toBe(true);
      }
    }
  });

  it('the covering list drops covered patterns and one of two equal ones, keeps the rest in order', () => {
    expect(
      coveringPatterns([
        INSERTED_SUBMISSION_PATTERN,
        REMOVED_FORM_PATTERN,
        INSERTED_SPAM_PATTERN,
        RETAINING_FORM_PATTERN,
        REMOVED_FORM_PATTERN,
      ]),
    ).toEqual([INSERTED_SUBMISSION_PATTERN, REMOVED_FORM_PATTERN, RETAINING_FORM_PATTERN]);
    expect(coveringPatterns([INSERTED_SPAM_PATTERN, SUBMISSION_CHANGE_PATTERN])).toEqual([
      INSERTED_SPAM_PATTERN,
      SUBMISSION_CHANGE_PATTERN,
    ]);
    expect(coveringPatterns([])).toEqual([]);
  });
});
