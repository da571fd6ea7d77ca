import type { AttemptResult } from '#domain/webhook-delivery.ts';
import type { SheetsClient } from './google-sheets.ts';

/**
 * The check before a sheet is connected to a form (docs/integrations.md#google-sheets):
 * one `spreadsheets.get` with the service account's token, read into the
 * answers the connect route gives (`sheet_not_shared` naming the address to
 * share with, `spreadsheet_not_found`, `sheet_not_found`). Without a
 * `sheetName` the spreadsheet's first sheet is taken.
 */
export type SheetCheck =
  | { kind: 'ok'; spreadsheetTitle: string; sheetName: string }
  /** Google answered 403: the spreadsheet is not shared with `serviceAccountEmail`. */
  | { kind: 'not_shared'; serviceAccountEmail: string }
  | { kind: 'spreadsheet_not_found' }
  | { kind: 'sheet_not_found'; sheetNames: string[] }
  /** Google could not be asked (5xx, 429, a timeout, a refused key): nothing to tell the owner about their sheet. */
  | { kind: 'unavailable'; attempt: AttemptResult; reason: string };

export async function checkSheet(
  client: SheetsClient,
  spreadsheetId: string,
  sheetName?: string,
): Promise<SheetCheck> {
  const answer = await client.getSpreadsheet(spreadsheetId);
  if (answer.kind === 'failed') {
    const status = answer.attempt.kind === 'response' ? answer.attempt.status : 0;
    // A token refusal is the deployment's key, not the owner's sharing: reason starts `token:`.
    if (status === 403 && !answer.reason.startsWith('token:')) {
      return { kind: 'not_shared', serviceAccountEmail: client.serviceAccountEmail };
    }
    if (status === 404) return { kind: 'spreadsheet_not_found' };
    return { kind: 'unavailable', attempt: answer.attempt, reason: answer.reason };
  }
  const sheets = answer.value.sheets.toSorted((a, b) => a.index - b.index);
  const sheet =
    sheetName === undefined ? sheets[0] : sheets.find((candidate) => candidate.title === sheetName);
  if (!sheet) return { kind: 'sheet_not_found', sheetNames: sheets.map((s) => s.title) };
  return { kind: 'ok', spreadsheetTitle: answer.value.title, sheetName: sheet.title };
}
