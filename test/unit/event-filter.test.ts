import { describe, expect, it } from 'vitest';
import { matchesPattern } from '#lib/local/event-filter.ts';
import { INSERTED_SUBMISSION_PATTERN } from '#store/schema.ts';

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
