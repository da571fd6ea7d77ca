import { config } from '#config';
import type { AttemptResult } from '#domain/webhook-delivery.ts';
import {
  attemptOf,
  GOOGLE_TIMEOUT_MS,
  type GoogleExchange,
  googleExchange,
  googleReason,
} from './google-http.ts';
import { type GoogleTokenSource, googleTokens } from './google-token.ts';

/**
 * The four Sheets API v4 methods the service uses, and no other
 * (docs/integrations.md#google-sheets): `spreadsheets.get`,
 * `spreadsheets.values.get`, `spreadsheets.values.update` and
 * `spreadsheets.values.append`. Every write is `valueInputOption=RAW`, so
 * an answer that looks like a formula is stored as the text it is. Each
 * call has 10 s; a failure is answered as an `AttemptResult` for the
 * webhook retry rules (classifyAttempt of #domain/webhook-delivery.ts),
 * and a 401 drops the token and tries once more with a new one.
 */

export interface SheetProperties {
  sheetId: number;
  title: string;
  index: number;
}

export interface SpreadsheetInfo {
  spreadsheetId: string;
  title: string;
  sheets: SheetProperties[];
}

export interface WriteAnswer {
  /** A1 range Google wrote, e.g. `'Sheet1'!A7:F7`. */
  updatedRange: string;
}

export type SheetsAnswer<T> =
  | { kind: 'ok'; value: T }
  | {
      kind: 'failed';
      attempt: AttemptResult;
      /** Google's words on one line, for a delivery log: never a token or key. */
      reason: string;
    };

type Grid = string[][];

function textGrid(values: unknown): Grid {
  if (!Array.isArray(values)) return [];
  return values.map((row) =>
    Array.isArray(row)
      ? row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))
      : [],
  );
}

export class SheetsClient {
  readonly #apiUrl: string;
  readonly #tokens: GoogleTokenSource;
  readonly #timeoutMs: number;

  constructor(options: { apiUrl: string; tokens: GoogleTokenSource; timeoutMs?: number }) {
    this.#apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.#tokens = options.tokens;
    this.#timeoutMs = options.timeoutMs ?? GOOGLE_TIMEOUT_MS;
  }

  /** The service account's address, the one a spreadsheet must be shared with. */
  get serviceAccountEmail(): string {
    return this.#tokens.clientEmail;
  }

  /** `spreadsheets.get`: the title and its sheets' names (no cell data). */
  async getSpreadsheet(spreadsheetId: string): Promise<SheetsAnswer<SpreadsheetInfo>> {
    const fields = 'spreadsheetId,properties.title,sheets.properties(sheetId,title,index)';
    const answer = await this.#call(
      'GET',
      `${this.#path(spreadsheetId)}?fields=${encodeURIComponent(fields)}`,
    );
    if (answer.kind !== 'ok') return answer;
    const body = (answer.value ?? {}) as {
      properties?: { title?: unknown };
      sheets?: { properties?: Partial<SheetProperties> }[];
    };
    const sheets = (Array.isArray(body.sheets) ? body.sheets : []).map(({ properties }, index) => ({
      sheetId: typeof properties?.sheetId === 'number' ? properties.sheetId : 0,
      title: typeof properties?.title === 'string' ? properties.title : '',
      index: typeof properties?.index === 'number' ? properties.index : index,
    }));
    const title = typeof body.properties?.title === 'string' ? body.properties.title : '';
    return { kind: 'ok', value: { spreadsheetId, title, sheets } };
  }

  /** `spreadsheets.values.get`: the range's cells as text, rows first (trailing empties left out, as Google does). */
  async getValues(spreadsheetId: string, range: string): Promise<SheetsAnswer<Grid>> {
    const answer = await this.#call(
      'GET',
      `${this.#valuesPath(spreadsheetId, range)}?majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE`,
    );
    if (answer.kind !== 'ok') return answer;
    return {
      kind: 'ok',
      value: textGrid((answer.value as { values?: unknown } | undefined)?.values),
    };
  }

  /** `spreadsheets.values.update` with `valueInputOption=RAW`. */
  async updateValues(
    spreadsheetId: string,
    range: string,
    values: Grid,
  ): Promise<SheetsAnswer<WriteAnswer>> {
    const answer = await this.#call(
      'PUT',
      `${this.#valuesPath(spreadsheetId, range)}?valueInputOption=RAW`,
      { range, majorDimension: 'ROWS', values },
    );
    if (answer.kind !== 'ok') return answer;
    const updatedRange = (answer.value as { updatedRange?: unknown } | undefined)?.updatedRange;
    return {
      kind: 'ok',
      value: { updatedRange: typeof updatedRange === 'string' ? updatedRange : range },
    };
  }

  /**
   * `spreadsheets.values.append` with `valueInputOption=RAW` and
   * `insertDataOption=INSERT_ROWS`: Google finds the table that `range`
   * starts and writes after its last row, inserting rows so nothing below
   * is overwritten.
   */
  async appendValues(
    spreadsheetId: string,
    range: string,
    values: Grid,
  ): Promise<SheetsAnswer<WriteAnswer>> {
    const answer = await this.#call(
      'POST',
      `${this.#valuesPath(spreadsheetId, range)}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`,
      { range, majorDimension: 'ROWS', values },
    );
    if (answer.kind !== 'ok') return answer;
    const updatedRange = (answer.value as { updates?: { updatedRange?: unknown } } | undefined)
      ?.updates?.updatedRange;
    return {
      kind: 'ok',
      value: { updatedRange: typeof updatedRange === 'string' ? updatedRange : '' },
    };
  }

  #path(spreadsheetId: string): string {
    return `${this.#apiUrl}/v4/spreadsheets/${encodeURIComponent(spreadsheetId)}`;
  }

  #valuesPath(spreadsheetId: string, range: string): string {
    return `${this.#path(spreadsheetId)}/values/${encodeURIComponent(range)}`;
  }

  async #call(method: string, url: string, body?: unknown): Promise<SheetsAnswer<unknown>> {
    let exchange: GoogleExchange | undefined;
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const token = await this.#tokens.token();
      if (token.kind === 'failed') return token;
      const headers: Record<string, string> = { authorization: `Bearer ${token.accessToken}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      exchange = await googleExchange(
        url,
        { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
        this.#timeoutMs,
      );
      // A token Google no longer takes (revoked, or expired early): one more try with a new one.
      if (exchange.kind === 'response' && exchange.status === 401) {
        this.#tokens.drop(token.accessToken);
        continue;
      }
      break;
    }
    if (exchange?.kind === 'response' && exchange.status >= 200 && exchange.status <= 299) {
      return { kind: 'ok', value: exchange.json };
    }
    const failed = exchange as GoogleExchange;
    return { kind: 'failed', attempt: attemptOf(failed), reason: googleReason(failed) };
  }
}

let containerClient: SheetsClient | undefined;

/** The container's Sheets client for the configured key and API URL; undefined without a key. */
export function sheetsClient(): SheetsClient | undefined {
  const tokens = googleTokens();
  if (!tokens) return undefined;
  if (containerClient?.serviceAccountEmail !== tokens.clientEmail) {
    containerClient = new SheetsClient({
      apiUrl: config.googleSheetsApiUrl,
      tokens,
      timeoutMs: config.receiverTimeoutMs,
    });
  }
  return containerClient;
}
