import { describe, expect, it } from 'vitest';
import {
  changedWords,
  chosenAnswers,
  matchesWords,
  rowSummary,
  senderOf,
  shortened,
  undoOf,
} from '#app/inbox-model.ts';
import type { FieldDefinition } from '#app/model.ts';

const fields: FieldDefinition[] = [
  { id: 'who', type: 'text', label: 'Name' },
  { id: 'reply_to', type: 'email', label: 'Where to answer' },
  { id: 'topic', type: 'select', label: 'Topic', options: ['Order', 'Other'] },
  { id: 'message', type: 'textarea', label: 'Message' },
  { id: 'phone', type: 'tel', label: 'Phone' },
] as FieldDefinition[];

describe('the inbox row', () => {
  it('names the sender from the form’s email field and its field labelled Name', () => {
    const data = { who: 'Ada Lovelace', reply_to: 'ada@example.com', message: 'Hello' };
    expect(senderOf(data, fields)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
  });

  it('without fields, from answers named like email and name; first and last names joined', () => {
    expect(senderOf({ Email: 'b@example.com', full_name: 'Bo Li', m: 'x' }, null)).toEqual({
      name: 'Bo Li',
      email: 'b@example.com',
    });
    expect(
      senderOf({ first_name: 'Bo', last_name: 'Li', 'e-mail': 'b@example.com' }, null),
    ).toEqual({ name: 'Bo Li', email: 'b@example.com' });
    expect(senderOf({ message: 'No one' }, null)).toEqual({ name: undefined, email: undefined });
    expect(senderOf({ name: '  ', email: '' }, null)).toEqual({
      name: undefined,
      email: undefined,
    });
  });

  it('shows up to three other answers in the form’s field order, short, never the sender twice', () => {
    const data = {
      phone: '+44 20 7946 0958',
      message: `A long question ${'about the order '.repeat(10)}`,
      who: 'Ada',
      reply_to: 'ada@example.com',
      topic: 'Order',
      extra: 'from a script',
      _invalid: '[]',
    };
    const answers = chosenAnswers(data, fields, senderOf(data, fields));
    expect(answers).toHaveLength(3);
    expect(answers[0]).toBe('Topic: Order');
    // A long text speaks for itself, as a message does.
    expect(answers[1]).toMatch(/^A long question about the order .*…$/);
    expect([...answers[1]!]).toHaveLength(60);
    expect(answers[2]).toBe('Phone: +44 20 7946 0958');
  });

  it('without fields, the longest answers first', () => {
    const summary = rowSummary(
      { data: { email: 'c@example.com', a: 'short', b: 'the longest answer here', c: 'mid one' } },
      null,
    );
    expect(summary).toEqual({
      sender: { name: undefined, email: 'c@example.com' },
      answers: ['B: the longest answer here', 'C: mid one', 'A: short'],
    });
  });

  it('a survey’s row says what each answer is, numbers after their label, never bare values', () => {
    const rsvp = [
      { id: 'attending', type: 'radio', label: 'Coming', options: ['Yes', 'No'] },
      { id: 'guests', type: 'number', label: 'Guests' },
      { id: 'diet', type: 'text', label: 'Anything we should know?' },
    ] as FieldDefinition[];
    expect(rowSummary({ data: { attending: 'Yes', guests: '1' } }, rsvp)).toEqual({
      sender: { name: undefined, email: undefined },
      answers: ['Coming: Yes', 'Guests 1'],
    });
    expect(rowSummary({ data: { diet: 'Vegan', guests: '0' } }, rsvp).answers).toEqual([
      'Guests 0',
      'Anything we should know? Vegan',
    ]);
    const nps = [{ id: 'score', type: 'rating', label: 'Score', min: 0, max: 10 }];
    expect(rowSummary({ data: { score: '3' } }, nps as FieldDefinition[]).answers).toEqual([
      'Score 3',
    ]);
    // A field without a label is named by its id; an answer without a field by its name in words.
    const bare = [{ id: 'plan', type: 'select', options: ['Gold'] }] as FieldDefinition[];
    expect(
      rowSummary({ data: { plan: 'Gold', guest_count: '2', subscribe: 'on' } }, bare).answers,
    ).toEqual(['plan: Gold', 'Guest count 2', 'Subscribe: on']);
    const box = [{ id: 'ok', type: 'checkbox', label: 'Keep me posted' }] as FieldDefinition[];
    expect(rowSummary({ data: { ok: 'on' } }, box).answers).toEqual(['Keep me posted: Ticked']);
  });

  it('cuts to a number of characters, not UTF-16 units, with white space folded', () => {
    expect(shortened('a\n\n b', 10)).toBe('a b');
    expect(shortened('😀'.repeat(12), 10)).toBe(`${'😀'.repeat(9)}…`);
  });
});

describe('the inbox’s words', () => {
  it('say what a change did and what a search counted', () => {
    expect(changedWords(3, { isSpam: true })).toBe('3 submissions moved to spam');
    expect(changedWords(1, { isSpam: false })).toBe('1 submission moved out of spam');
    expect(changedWords(4, { read: true })).toBe('4 submissions marked read');
    expect(changedWords(2, { starred: false })).toBe('2 submissions unstarred');
    expect(matchesWords(12, 'all', 'note')).toBe('12 matches for “note”, spam not included');
    expect(matchesWords(1, 'unread', 'x')).toBe('1 unread match for “x”, spam not included');
    expect(matchesWords(5, 'spam', 'pills')).toBe('5 matches for “pills” in spam');
  });
});

describe('undo of a triage change', () => {
  const rows = [
    { id: 'a', read: false, starred: false, isSpam: false },
    { id: 'b', read: true, starred: true, isSpam: false },
    { id: 'c', read: false, starred: true, isSpam: false },
  ];

  it('puts back only what the change moved, each to what it was', () => {
    expect(undoOf(rows, ['a', 'b', 'c'], { read: true })).toEqual({
      ids: ['a', 'c'],
      flags: { read: false },
    });
    expect(undoOf(rows, ['b', 'c'], { starred: false })).toEqual({
      ids: ['b', 'c'],
      flags: { starred: true },
    });
    expect(undoOf(rows, ['a'], { isSpam: true })).toEqual({ ids: ['a'], flags: { isSpam: false } });
  });

  it('offers none when nothing of the list moved, or for a change of several flags', () => {
    expect(undoOf(rows, ['b'], { read: true })).toBeUndefined();
    expect(undoOf(rows, ['gone'], { read: true })).toBeUndefined();
    expect(undoOf(rows, ['a'], { read: true, starred: true })).toBeUndefined();
    expect(undoOf(rows, ['a'], {})).toBeUndefined();
  });
});
