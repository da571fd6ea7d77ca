import { describe, expect, it } from 'vitest';
import { newAnswerNames } from '#domain/answer-columns.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { AnswerColumns } from '#domain/submission-export.ts';

const fields = [{ id: 'email' }, { id: 'name' }] as FieldDefinition[];
const catalogue = (...names: string[]) => ({ complete: true, names });

describe('newAnswerNames', () => {
  it('is empty for a post that carries only names the catalogue holds', () => {
    expect(newAnswerNames(['email', 'company'], catalogue('email', 'company'), fields)).toEqual([]);
  });

  it('takes the names the catalogue lacks in code-point order, never _invalid', () => {
    expect(
      newAnswerNames(['zeta', 'email', '_invalid', 'Alpha', 'name'], catalogue('email'), fields),
    ).toEqual(['Alpha', 'name', 'zeta']);
    expect(newAnswerNames(['b', 'a'], undefined, null)).toEqual(['a', 'b']);
  });

  it('stops adding names that are not field ids at the cap, field ids always go in', () => {
    const full = catalogue('email', 'x1', 'x2');
    expect(newAnswerNames(['x3', 'name'], full, fields, 2)).toEqual(['name']);
    expect(newAnswerNames(['c', 'b', 'a'], catalogue('x1'), fields, 3)).toEqual(['a', 'b']);
    // Field ids in the catalogue do not count toward the cap.
    expect(newAnswerNames(['a'], catalogue('email', 'name'), fields, 1)).toEqual(['a']);
  });
});

describe('AnswerColumns from a catalogue', () => {
  it('keeps the catalogue order after the field ids, skipping field ids, repeats and _invalid', () => {
    const columns = new AnswerColumns(fields);
    columns.noteNames(['zeta', 'email', '_invalid', 'alpha', 'zeta']);
    expect(columns.names).toEqual(['email', 'name', 'zeta', 'alpha']);
  });

  it('caps the names and counts answer names a later post brought', () => {
    const columns = new AnswerColumns(fields, 1);
    columns.noteNames(['a', 'b']);
    expect(columns.names).toEqual(['email', 'name', 'a']);
    expect(columns.droppedCount).toBe(1);
    // Past the cap nothing is late: the name would have been left out anyway.
    expect(columns.lateNames([{ data: { c: '1' } }])).toBe(0);
    const open = new AnswerColumns(fields);
    open.noteNames(['a']);
    expect(open.lateNames([{ data: { a: '1', late: '2', _invalid: 'x' } }])).toBe(1);
  });
});
