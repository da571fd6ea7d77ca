import { describe, expect, it } from 'vitest';
import { searchQuery } from '#domain/search-query.ts';
import type { Submission } from '#domain/submission-model.ts';
import { foldText, matches, words } from '#domain/submission-search.ts';

const submission = (data: Record<string, string>, flags: Partial<Submission> = {}): Submission =>
  ({
    id: 's',
    formId: 'f',
    data,
    meta: {},
    read: false,
    starred: false,
    isSpam: false,
    isTest: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...flags,
  }) as Submission;

describe('searching answers', () => {
  it('folds case and accents, and compatibility forms', () => {
    expect(foldText('Crème BRÛLÉE ﬁne')).toBe('creme brulee fine');
    expect(words('  Zoë,  Ångström ')).toEqual(['zoe', 'angstrom']);
  });

  it('matches when every word is in some answer, the address included', () => {
    const s = submission({ name: 'Zoë Dupont', email: 'zoe@Example.com', message: 'Café au lait' });
    expect(matches(s, 'all', words('zoe cafe'))).toBe(true);
    expect(matches(s, 'all', words('EXAMPLE.COM'))).toBe(true);
    expect(matches(s, 'all', words('zoe tea'))).toBe(false);
  });

  it('never matches the names of fields, nor the _invalid report', () => {
    const s = submission({
      message: 'hello',
      _invalid: '[{"fieldId":"email","reason":"required"}]',
    });
    expect(matches(s, 'all', words('message'))).toBe(false);
    expect(matches(s, 'all', words('required'))).toBe(false);
  });

  it('keeps to the folder: spam only in spam, unread only while unread', () => {
    const spam = submission({ a: 'offer' }, { isSpam: true });
    const read = submission({ a: 'offer' }, { read: true, starred: true });
    expect(matches(spam, 'all', ['offer'])).toBe(false);
    expect(matches(spam, 'spam', ['offer'])).toBe(true);
    expect(matches(read, 'unread', ['offer'])).toBe(false);
    expect(matches(read, 'starred', ['offer'])).toBe(true);
  });

  it('the query needs a word, at most 200 characters, a folder, and a cursor of an id', () => {
    expect(searchQuery.safeParse({ q: '   ' }).success).toBe(false);
    expect(searchQuery.safeParse({ q: 'x'.repeat(201) }).success).toBe(false);
    expect(searchQuery.safeParse({ q: 'x', folder: 'trash' }).success).toBe(false);
    expect(searchQuery.safeParse({ q: 'x', cursor: 'nope' }).success).toBe(false);
    expect(searchQuery.parse({ q: 'x' })).toEqual({ q: 'x', folder: 'all' });
  });
});
