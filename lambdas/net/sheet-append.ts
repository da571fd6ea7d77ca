import {
  appendRange,
  columnBelowHeader,
  columnsByName,
  firstRowOf,
  headerCellsRange,
  headerRange,
  ID_COLUMN,
  mergeHeader,
  rowUnder,
  type SheetSubmission,
  sheetHeader,
  submissionCells,
} from '#domain/sheet-rows.ts';
import type { AttemptResult } from '#domain/webhook-delivery.ts';
import type { SheetsClient } from './google-sheets.ts';

/**
 * One submission appended to its form's sheet (docs/integrations.md#google-sheets),
 * what the Sheets worker calls once per message: read row 1, write the
 * names it lacks at its right, and append the row under the names it
 * matches. Rows of one form are appended one at a time, in order (the
 * worker's queue), so two appends never race on the header.
 *
 * No duplicate rows: when the submission may already be in the sheet
 * (`mayBeThere`: a retry after an attempt that failed or timed out, a
 * redelivered message, a manual retry), the `id` column is read first and
 * nothing is appended when the id is found. The Sheets API cannot read "the
 * last N rows" without knowing where the data ends, so the whole `id`
 * column is read (one column: about 40 bytes a row, 400 KB at 10,000 rows,
 * searched from the bottom, where an earlier attempt's row is), and only on
 * these attempts: a first attempt, which is nearly every row, pays two
 * calls (row 1 and the append) and three when the header grows.
 */

export type SheetAppendOutcome =
  | {
      kind: 'appended';
      /** 1-based row the submission went to, when Google said. */
      row: number | undefined;
      /** Names written to row 1 first (empty when the header had them all). */
      addedColumns: string[];
    }
  | { kind: 'already_there'; row: number; addedColumns: string[] }
  | {
      kind: 'failed';
      /** For classifyAttempt of #domain/webhook-delivery.ts: retry (429, 5xx, timeout) or fail. */
      attempt: AttemptResult;
      reason: string;
      /** The call that failed. */
      step: 'header' | 'check' | 'append';
    };

export async function appendSubmissionRow(
  client: SheetsClient,
  input: {
    spreadsheetId: string;
    sheetName: string;
    submission: SheetSubmission;
    /** The form's field ids in order (its header's first answer columns). */
    fieldIds: readonly string[];
    /** True when an earlier attempt for this submission may have reached Google. */
    mayBeThere: boolean;
  },
): Promise<SheetAppendOutcome> {
  const { spreadsheetId, sheetName, submission } = input;
  const read = await client.getValues(spreadsheetId, headerRange(sheetName));
  if (read.kind === 'failed') return { ...read, step: 'header' };
  const { header, addedFrom } = mergeHeader(
    read.value[0] ?? [],
    sheetHeader(submission, input.fieldIds),
  );
  const addedColumns = addedFrom === -1 ? [] : header.slice(addedFrom);
  if (addedFrom !== -1) {
    // Only the new cells are written: the owner's own header cells are never rewritten.
    const written = await client.updateValues(
      spreadsheetId,
      headerCellsRange(sheetName, addedFrom, header.length - 1),
      [addedColumns],
    );
    if (written.kind === 'failed') return { ...written, step: 'header' };
  }

  if (input.mayBeThere) {
    const idColumn = columnsByName(header).get(ID_COLUMN);
    if (idColumn !== undefined) {
      const ids = await client.getValues(spreadsheetId, columnBelowHeader(sheetName, idColumn));
      if (ids.kind === 'failed') return { ...ids, step: 'check' };
      const index = ids.value.findLastIndex((row) => row[0]?.trim() === submission.id);
      if (index !== -1) return { kind: 'already_there', row: index + 2, addedColumns };
    }
  }

  const row = rowUnder(header, submissionCells(submission));
  const appended = await client.appendValues(spreadsheetId, appendRange(sheetName, header.length), [
    row,
  ]);
  if (appended.kind === 'failed') return { ...appended, step: 'append' };
  return { kind: 'appended', row: firstRowOf(appended.value.updatedRange), addedColumns };
}
