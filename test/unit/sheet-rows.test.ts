import { describe, expect, it } from 'vitest';
import {
  a1Range,
  answerColumn,
  appendRange,
  columnBelowHeader,
  columnLetters,
  firstRowOf,
  headerCellsRange,
  MAX_CELL_CHARACTERS,
  mergeHeader,
  rowUnder,
  type SheetSubmission,
  sheetHeader,
  submissionCells,
} from '#domain/sheet-rows.ts';

const submission = (over: Partial<SheetSubmission> = {}): SheetSubmission => ({
  id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd',
  createdAt: '2026-11-26T09:00:00.000Z',
  isTest: false,
  data: { message: 'Hello', email: 'zoe@example.com', zeta: 'z', alpha: 'a' },
  meta: {},
  ...over,
});

describe('sheetHeader', () => {
  it('is id, createdAt, the field ids in order, then other names in code-point order', () => {
    expect(sheetHeader(submission(), ['email', 'message', 'phone'])).toEqual([
      'id',
      'createdAt',
      'email',
      'message',
      'phone',
      'alpha',
      'zeta',
    ]);
  });

  it('adds isTest at the right only for a test submission', () => {
    expect(sheetHeader(submission(), ['email'])).not.toContain('isTest');
    expect(sheetHeader(submission({ isTest: true }), ['email']).at(-1)).toBe('isTest');
  });

  it('leaves out meta names such as _invalid', () => {
    const header = sheetHeader(submission({ data: { email: 'x', _invalid: '[]', _other: 'y' } }), [
      'email',
    ]);
    expect(header).toEqual(['id', 'createdAt', 'email']);
  });
});

describe('mergeHeader', () => {
  it('appends the names row 1 lacks at the right, never reordering', () => {
    const merged = mergeHeader(['createdAt', 'id', 'email'], ['id', 'createdAt', 'email', 'phone']);
    expect(merged).toEqual({ header: ['createdAt', 'id', 'email', 'phone'], addedFrom: 3 });
  });

  it('adds nothing when every name is there (matched without surrounding spaces)', () => {
    expect(mergeHeader([' id', 'createdAt ', 'email'], ['id', 'createdAt', 'email'])).toEqual({
      header: [' id', 'createdAt ', 'email'],
      addedFrom: -1,
    });
  });

  it('writes a whole header on an empty sheet, and keeps a blank cell in the middle', () => {
    expect(mergeHeader([], ['id', 'createdAt']).header).toEqual(['id', 'createdAt']);
    expect(mergeHeader(['id', '', 'note', '', ''], ['id', 'x'])).toEqual({
      header: ['id', '', 'note', 'x'],
      addedFrom: 3,
    });
  });
});

describe('rowUnder and submissionCells', () => {
  it('puts each value under its column wherever the owner moved it', () => {
    const header = ['email', 'Notes', 'id', 'createdAt', 'message'];
    expect(rowUnder(header, submissionCells(submission()))).toEqual([
      'zoe@example.com',
      '',
      '0192f3a4-5b6c-7d8e-9f01-23456789abcd',
      '2026-11-26T09:00:00.000Z',
      'Hello',
    ]);
  });

  it('keeps formula-looking answers as they are (RAW writes them as text)', () => {
    const cells = submissionCells(
      submission({ data: { a: '=IMPORTXML("x")', b: '+1', c: '-2', d: '@SUM(A1)' } }),
    );
    expect([...cells.values()].slice(2)).toEqual(['=IMPORTXML("x")', '+1', '-2', '@SUM(A1)']);
  });

  it('writes file answers as file names, arrays joined, long text cut to a cell', () => {
    const cells = submissionCells(
      submission({
        data: {
          cv: 'ignored',
          tags: ['a', 'b'] as unknown as string,
          long: 'x'.repeat(MAX_CELL_CHARACTERS + 10),
        },
        meta: {
          files: [
            { field: 'cv', name: 'cv.pdf', mime: 'application/pdf', size: 1 },
            { field: 'cv', name: 'letter.pdf', mime: 'application/pdf', size: 1 },
            { name: 'unnamed.txt', mime: 'text/plain', size: 1 },
          ],
        },
        isTest: true,
      }),
    );
    expect(cells.get('cv')).toBe('cv.pdf, letter.pdf');
    expect(cells.get('tags')).toBe('a, b');
    expect(cells.get('long')).toHaveLength(MAX_CELL_CHARACTERS);
    expect(cells.get('isTest')).toBe('true');
    expect([...cells.values()].join()).not.toContain('unnamed.txt');
  });
});

describe('A1 ranges', () => {
  it('names columns past Z', () => {
    expect([0, 25, 26, 51, 52, 701, 702, 18_277].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'ZZZ',
    ]);
    expect(() => columnLetters(-1)).toThrow(RangeError);
  });

  it('quotes sheet names, doubling quotes', () => {
    expect(a1Range('Sheet1', 'A1')).toBe("'Sheet1'!A1");
    expect(a1Range("Bob's sheet", 'A1:B2')).toBe("'Bob''s sheet'!A1:B2");
    expect(headerCellsRange('My form', 26, 27)).toBe("'My form'!AA1:AB1");
    expect(columnBelowHeader('S', 2)).toBe("'S'!C2:C");
    expect(appendRange('S', 3)).toBe("'S'!A1:C1");
  });

  it('reads the first row of a range Google answers', () => {
    expect(firstRowOf("'My form'!A7:F7")).toBe(7);
    expect(firstRowOf("'It''s'!AB12")).toBe(12);
    expect(firstRowOf("'S'!A:A")).toBeUndefined();
  });
});

describe('answerColumn: no answer writes a service column or is dropped (docs/integrations.md#google-sheets)', () => {
  it('keeps a plain name as it is', () => {
    expect(answerColumn('email')).toBe('email');
    expect(answerColumn('ID')).toBe('ID');
    expect(answerColumn('Your name')).toBe('Your name');
  });

  it('prefixes a name that is a service column, has spaces around, is blank or looks prefixed', () => {
    expect(answerColumn('id')).toBe('answer:"id"');
    expect(answerColumn('createdAt')).toBe('answer:"createdAt"');
    expect(answerColumn('isTest')).toBe('answer:"isTest"');
    expect(answerColumn(' email ')).toBe('answer:" email "');
    expect(answerColumn('')).toBe('answer:""');
    expect(answerColumn('   ')).toBe('answer:"   "');
    expect(answerColumn('answer:"id"')).toBe('answer:"answer:\\"id\\""');
  });

  it('gives two different names two different columns, as the worker matches them (trimmed)', () => {
    const names = [
      'id',
      ' id',
      'id ',
      'answer:"id"',
      'email',
      ' email',
      'email ',
      '',
      ' ',
      'isTest',
    ];
    const columns = names.map((name) => answerColumn(name).trim());
    expect(new Set(columns).size).toBe(names.length);
    for (const column of columns) expect(['id', 'createdAt', 'isTest']).not.toContain(column);
  });

  it("a visitor's isTest, id and createdAt fill no service column, and every answer is in the row", () => {
    const posted = submission({
      data: {
        message: 'Hello',
        isTest: 'true',
        id: 'forged-id',
        createdAt: '1999-01-01',
        ' email ': 'spaced@example.com',
        email: 'plain@example.com',
        '': 'blank name',
      },
    });
    const header = mergeHeader([], sheetHeader(posted, ['email', 'isTest'])).header;
    const row = rowUnder(header, submissionCells(posted));
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('id')).toBe(posted.id);
    expect(cell('createdAt')).toBe(posted.createdAt);
    expect(header).not.toContain('isTest');
    expect(cell('answer:"isTest"')).toBe('true');
    expect(cell('answer:"id"')).toBe('forged-id');
    expect(cell('answer:"createdAt"')).toBe('1999-01-01');
    expect(cell('answer:" email "')).toBe('spaced@example.com');
    expect(cell('email')).toBe('plain@example.com');
    expect(cell('answer:""')).toBe('blank name');
    for (const value of Object.values(posted.data)) expect(row).toContain(value);
    // A header cell for every value: none added without its answer under it.
    expect(row.filter((value) => value !== '')).toHaveLength(header.length);
  });

  it('a test submission writes the service isTest, whatever an answer of that name says', () => {
    const cells = submissionCells(submission({ isTest: true, data: { isTest: 'no' } }));
    expect(cells.get('isTest')).toBe('true');
    expect(cells.get('answer:"isTest"')).toBe('no');
  });

  it('a file answer named as a service column goes under the prefixed column too', () => {
    const cells = submissionCells(
      submission({
        data: {},
        meta: { files: [{ field: 'id', name: 'cv.pdf', mime: 'x', size: 1 }] },
      }),
    );
    expect(cells.get('id')).toBe('0192f3a4-5b6c-7d8e-9f01-23456789abcd');
    expect(cells.get('answer:"id"')).toBe('cv.pdf');
  });
});
