import { describe, expect, it } from 'vitest';
import {
  CELL_LENGTH,
  cellWords,
  movedColumn,
  questionColumns,
  shownColumns,
  toggledColumn,
} from '#app/inbox-columns.ts';
import { readInboxView, saveInboxView } from '#app/inbox-view.ts';
import type { FieldDefinition } from '#app/model.ts';

const fields = [
  { id: 'attending', type: 'radio', label: 'Coming', options: ['Yes', 'No'] },
  { id: 'guests', type: 'number', label: '' },
  { id: 'cv', type: 'file', label: 'CV' },
  { id: 'ok', type: 'checkbox', label: 'Keep me posted' },
  { id: 'a', type: 'text', label: 'A' },
  { id: 'b', type: 'text', label: 'B' },
  { id: 'c', type: 'text', label: 'C' },
] as FieldDefinition[];

const ids = (columns: { id: string }[]) => columns.map((column) => column.id);

describe('the table view’s columns', () => {
  it('are the form’s fields in order, then other answer names as they came, then names chosen before', () => {
    const all = questionColumns(
      fields,
      [{ data: { extra_note: 'x', _invalid: '[]', guests: '1' } }, { data: { zeta: 'z' } }],
      ['gone_name', 'guests'],
    );
    expect(ids(all)).toEqual([
      'attending',
      'guests',
      'cv',
      'ok',
      'a',
      'b',
      'c',
      'extra_note',
      'zeta',
      'gone_name',
    ]);
    // A field without a label is named by its id; an answer name without a field in words.
    expect(all.find((column) => column.id === 'guests')!.label).toBe('guests');
    expect(all.find((column) => column.id === 'extra_note')!.label).toBe('Extra note');
  });

  it('before any choice, the first six questions; after it, the choice in its order, names no longer questions dropped', () => {
    const all = questionColumns(fields, []);
    expect(ids(shownColumns(all, undefined))).toEqual([
      'attending',
      'guests',
      'cv',
      'ok',
      'a',
      'b',
    ]);
    expect(ids(shownColumns(all, ['c', 'attending', 'nowhere']))).toEqual(['c', 'attending']);
    expect(shownColumns(all, [])).toEqual([]);
  });

  it('a column is shown last or hidden, and moves one place within the list', () => {
    expect(toggledColumn(['a', 'b'], 'c')).toEqual(['a', 'b', 'c']);
    expect(toggledColumn(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
    expect(movedColumn(['a', 'b', 'c'], 'c', -1)).toEqual(['a', 'c', 'b']);
    expect(movedColumn(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
    expect(movedColumn(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
    expect(movedColumn(['a', 'b', 'c'], 'c', 1)).toEqual(['a', 'b', 'c']);
  });

  it('a cell is the answer cut short, a ticked box in words, a file field’s files by name', () => {
    const all = questionColumns(fields, []);
    const column = (id: string) => all.find((each) => each.id === id)!;
    const submission = {
      data: { a: 'word '.repeat(40), ok: 'on', attending: '  ' },
      meta: {
        userAgent: '',
        referrer: '',
        files: [
          { field: 'cv', name: 'ada-cv.pdf', mime: 'application/pdf', size: 1 },
          { field: 'other', name: 'photo.png', mime: 'image/png', size: 1 },
          { field: 'cv[]', name: 'letter.pdf', mime: 'application/pdf', size: 1 },
        ],
      },
    };
    const cut = cellWords(submission, column('a'), fields);
    expect([...cut]).toHaveLength(CELL_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
    expect(cellWords(submission, column('ok'), fields)).toBe('Ticked');
    expect(cellWords(submission, column('attending'), fields)).toBe('');
    expect(cellWords(submission, column('cv'), fields)).toBe('ada-cv.pdf; letter.pdf');
    // Files stored before files kept their field belong to the form's one file field.
    const older = {
      data: {},
      meta: { userAgent: '', referrer: '', files: [{ name: 'old.pdf', mime: 'x', size: 1 }] },
    };
    expect(cellWords(older, column('cv'), fields)).toBe('old.pdf');
  });
});

describe('the inbox view kept in the browser', () => {
  const storage = () => {
    const kept = new Map<string, string>();
    return {
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => void kept.set(key, value),
    };
  };

  it('is kept per form, and read back checked', () => {
    const store = storage();
    expect(readInboxView(store, 'f1')).toEqual({ view: 'rows' });
    saveInboxView(store, 'f1', { view: 'table', columns: ['b', 'a'] });
    expect(readInboxView(store, 'f1')).toEqual({ view: 'table', columns: ['b', 'a'] });
    expect(readInboxView(store, 'f2')).toEqual({ view: 'rows' });
    store.setItem('form-service:inbox-view:f3', '{"view":"grid","columns":[1,2]}');
    expect(readInboxView(store, 'f3')).toEqual({ view: 'rows' });
    store.setItem('form-service:inbox-view:f4', 'not json');
    expect(readInboxView(store, 'f4')).toEqual({ view: 'rows' });
  });

  it('a storage that refuses (a private window) costs the choice, never the screen', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(() => saveInboxView(refusing, 'f1', { view: 'table' })).not.toThrow();
    expect(readInboxView(refusing, 'f1')).toEqual({ view: 'rows' });
  });
});
