import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvRecords, neutralizeFormula, UTF8_BOM } from '#domain/csv.ts';

describe('neutralizeFormula', () => {
  it.each([
    ['=HYPERLINK("http://x","y")'],
    ['+1'],
    ['-2'],
    ['@SUM(A1)'],
    ['\tcmd'],
    ['\rcmd'],
    ['＝1+1'],
    ['＋1'],
    ['－1'],
    ['＠x'],
  ])('puts a quote before %j', (cell) => {
    expect(neutralizeFormula(cell)).toBe(`'${cell}`);
  });

  it.each([[''], ['a=b'], [' =1'], ['1-2'], ["'quoted"], ['\nline'], ['😀=']])(
    'leaves %j alone',
    (cell) => {
      expect(neutralizeFormula(cell)).toBe(cell);
    },
  );
});

describe('csvRecords', () => {
  it('ends every record in CRLF and leaves plain cells unquoted', () => {
    expect(
      csvRecords([
        ['a', 'b'],
        ['c', ''],
      ]),
    ).toBe('a,b\r\nc,\r\n');
    expect(csvRecords([])).toBe('');
  });

  it('quotes a cell holding a comma, a quote, CR or LF, and doubles quotes (RFC 4180)', () => {
    expect(csvRecords([['a,b']])).toBe('"a,b"\r\n');
    expect(csvRecords([['say "hi"']])).toBe('"say ""hi"""\r\n');
    expect(csvRecords([['one\ntwo']])).toBe('"one\ntwo"\r\n');
    expect(csvRecords([['one\rtwo']])).toBe('"one\rtwo"\r\n');
    expect(csvRecords([['one\r\ntwo']])).toBe('"one\r\ntwo"\r\n');
  });

  it('neutralizes formulas before quoting', () => {
    expect(csvRecords([['=HYPERLINK("http://x","y")', '-1']])).toBe(
      `"'=HYPERLINK(""http://x"",""y"")",'-1\r\n`,
    );
  });

  it('round-trips any text through a CSV parser (as neutralized)', () => {
    const cells = [
      'Hello, "world"\r\nsecond\nthird\rfourth',
      'ünïcödé 😀 中文',
      '   spaces   ',
      '""',
      ',',
      '\u2028separator',
      'trailing\n',
    ];
    const text = UTF8_BOM + csvRecords([cells, ['x', 'y', 'z', '', '', '', '']]);
    expect(parse(text, { bom: true })).toEqual([cells, ['x', 'y', 'z', '', '', '', '']]);
  });
});
