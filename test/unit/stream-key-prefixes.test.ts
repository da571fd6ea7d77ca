import { describe, expect, it } from 'vitest';
import { emailIndexKey, SUBMISSION_PREFIX, submissionKey } from '#store/keys.ts';
import { SUBMISSION_CHANGE_PATTERN } from '#store/schema.ts';

/**
 * The stream's submission consumers (the summary rollup, the answer columns…)
 * are fed every item whose sort key starts with `SUB#`: an item of another
 * kind under that prefix is counted as a submission (the email index was, and
 * every summary stopped equalling its recount).
 */
describe('the sort keys the submission stream filter takes', () => {
  const prefix = SUBMISSION_CHANGE_PATTERN.dynamodb.Keys.sk.S[0].prefix;

  it('the filter takes submissions', () => {
    expect(prefix).toBe(SUBMISSION_PREFIX);
    expect(submissionKey('form-1', 'sub-1').sk.startsWith(prefix)).toBe(true);
  });

  it('an email index entry is not one of them', () => {
    expect(emailIndexKey('team-1', 'hash', 'form-1', 'sub-1').sk.startsWith(prefix)).toBe(false);
  });
});
