import { stringify } from 'csv-stringify/sync';

/**
 * CSV text for spreadsheets: RFC 4180 quoting from csv-stringify, and our
 * own guard against formula injection, since every cell may hold what a
 * stranger typed into a form.
 */

/** Excel decodes a CSV file as UTF-8 only when it starts with a byte order mark. */
export const UTF8_BOM = '\uFEFF';

/**
 * First characters that make Excel, LibreOffice or Google Sheets read a cell
 * as a formula (OWASP "CSV injection"). The full-width forms are in the set
 * because Apple Numbers folds them to their ASCII twins before deciding.
 */
const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠']);

/** The cell, with a leading `'` when a spreadsheet would otherwise run it as a formula. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_STARTS.has(cell.charAt(0)) ? `'${cell}` : cell;
}

const RFC_4180 = {
  delimiter: ',',
  quote: '"',
  escape: '"',
  record_delimiter: 'windows',
  // Once a record delimiter is chosen, csv-stringify quotes a lone \n or \r
  // only when asked to; an unquoted one would split the record.
  quote_record_delimiter: true,
  eof: true,
} as const;

/** The records as CSV text, each ending in CRLF, every cell neutralized first. */
export function csvRecords(records: readonly (readonly string[])[]): string {
  return stringify(
    records.map((record) => record.map(neutralizeFormula)),
    RFC_4180,
  );
}
