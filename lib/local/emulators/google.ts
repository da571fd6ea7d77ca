import { createPublicKey, createVerify, type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { html, type SafeHtml } from '#domain/html.ts';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';

/**
 * Google's token endpoint and the four Sheets API v4 methods the service
 * uses (docs/integrations.md#local-emulator), on 127.0.0.1, over
 * spreadsheets held in memory:
 *
 * - `POST /token`: the jwt-bearer grant; the assertion's RS256 signature is
 *   checked against the public key of a known account, with its audience
 *   (this URL), scope and expiry, as Google checks them.
 * - `GET /v4/spreadsheets/{id}`, `GET|PUT …/values/{range}`,
 *   `POST …/values/{range}:append`: A1 ranges with quoted sheet names;
 *   writes take `valueInputOption=RAW` only (the service never sends
 *   another); 401 without a live token, 404 for an unknown spreadsheet, 403
 *   for one not shared with the token's account.
 * - `GET /`: each spreadsheet's grid as a page.
 * - Test controls, in process (the handle) and as JSON under `/emulator/`:
 *   create a spreadsheet, share and unshare it, answer the next request
 *   with a status (and `Retry-After`), or apply it and never answer.
 */

export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_LIFETIME_SECONDS = 3599;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_ROWS = 100_000;
const MAX_COLUMNS = 18_278;
const MAX_CELL_CHARACTERS = 50_000;
/** Rows and columns of each sheet the page draws. */
const PAGE_ROWS = 200;
const PAGE_COLUMNS = 40;

export type GoogleMethod = 'token' | 'get' | 'values.get' | 'values.update' | 'values.append';

/** Which requests a fault takes: of this method, about this spreadsheet (any when absent). */
interface FaultScope {
  method?: GoogleMethod;
  /** Scoped to one spreadsheet, a test's faults never reach another test's sheet. */
  spreadsheetId?: string;
}

/** What the next matching request gets instead of its answer. */
export type GoogleFault =
  | (FaultScope & { status: number; retryAfter?: string })
  /** The request is applied, then never answered (the caller's timeout fires). */
  | (FaultScope & { hang: true });

export interface GoogleAccount {
  clientEmail: string;
  /** PEM of the account's public key (or its private key: the public half is taken). */
  publicKey: string;
}

export interface GoogleWrite {
  method: 'values.update' | 'values.append';
  spreadsheetId: string;
  range: string;
  valueInputOption: string | null;
}

export interface GoogleHandle extends EmulatorHandle {
  tokenUrl: string;
  /** What `GOOGLE_SHEETS_API_URL` is set to. */
  sheetsApiUrl: string;
  /** The page of every spreadsheet's grid. */
  pageUrl: string;
  createSpreadsheet(input: {
    title?: string;
    sheets: string[];
    sharedWith?: string[];
    spreadsheetId?: string;
  }): string;
  share(spreadsheetId: string, email: string): void;
  unshare(spreadsheetId: string, email: string): void;
  /** A sheet's cells as stored (rows of text; short rows are empty to their right). */
  grid(spreadsheetId: string, sheet: string): string[][];
  /** Replaces a sheet's cells, as an owner editing by hand would. */
  setGrid(spreadsheetId: string, sheet: string, grid: string[][]): void;
  inject(fault: GoogleFault): void;
  /** Every token given so far stops working (Google's answer is then 401). */
  revokeTokens(): void;
  stats(): { tokenRequests: number; tokensIssued: number; writes: GoogleWrite[] };
}

interface Sheet {
  sheetId: number;
  title: string;
  grid: string[][];
}

interface Spreadsheet {
  spreadsheetId: string;
  title: string;
  sheets: Sheet[];
  sharedWith: Set<string>;
}

class Refusal extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

const googleError = (code: number, status: string, message: string) =>
  new Refusal(code, { error: { code, message, status } });

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

// --- A1 notation --------------------------------------------------------------------------

interface CellRange {
  sheet: string | undefined;
  startColumn: number;
  startRow: number;
  /** Inclusive; Infinity when open. */
  endColumn: number;
  endRow: number;
}

function columnIndex(letters: string): number {
  let n = 0;
  for (const char of letters.toUpperCase()) n = n * 26 + (char.charCodeAt(0) - 64);
  return n - 1;
}

export function columnName(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

const CELLS = /^([A-Za-z]{0,3})(\d{0,7})(?::([A-Za-z]{0,3})(\d{0,7}))?$/;

function parseCells(text: string, range: string): Omit<CellRange, 'sheet'> {
  const match = CELLS.exec(text);
  if (!match || text === '' || text === ':') {
    throw googleError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
  }
  const [, c1 = '', r1 = '', c2, r2] = match;
  const single = c2 === undefined && r2 === undefined;
  const startColumn = c1 === '' ? 0 : columnIndex(c1);
  const startRow = r1 === '' ? 1 : Number(r1);
  const endColumn = single
    ? c1 === ''
      ? Number.POSITIVE_INFINITY
      : startColumn
    : c2 === ''
      ? Number.POSITIVE_INFINITY
      : columnIndex(c2 ?? '');
  const endRow = single
    ? r1 === ''
      ? Number.POSITIVE_INFINITY
      : startRow
    : r2 === ''
      ? Number.POSITIVE_INFINITY
      : Number(r2);
  if (startRow < 1 || endRow < startRow || endColumn < startColumn) {
    throw googleError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
  }
  return { startColumn, startRow, endColumn, endRow };
}

/** `'It''s'!A1:B2`, `Sheet1!A:A`, `'My sheet'`, `A1:C3` (the first sheet). */
export function parseA1(range: string): CellRange {
  if (range.startsWith("'")) {
    let name = '';
    let i = 1;
    for (; i < range.length; i += 1) {
      if (range[i] === "'") {
        if (range[i + 1] === "'") {
          name += "'";
          i += 1;
          continue;
        }
        break;
      }
      name += range[i];
    }
    if (i >= range.length)
      throw googleError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
    const rest = range.slice(i + 1);
    if (rest === '')
      return { sheet: name, startColumn: 0, startRow: 1, endColumn: Infinity, endRow: Infinity };
    if (!rest.startsWith('!'))
      throw googleError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
    return { sheet: name, ...parseCells(rest.slice(1), range) };
  }
  const bang = range.indexOf('!');
  if (bang !== -1)
    return { sheet: range.slice(0, bang), ...parseCells(range.slice(bang + 1), range) };
  if (CELLS.test(range) && /\d|:/.test(range))
    return { sheet: undefined, ...parseCells(range, range) };
  return { sheet: range, startColumn: 0, startRow: 1, endColumn: Infinity, endRow: Infinity };
}

const quoted = (name: string) => `'${name.replaceAll("'", "''")}'`;

function a1(
  sheet: string,
  startColumn: number,
  startRow: number,
  endColumn: number,
  endRow: number,
) {
  const start = `${columnName(startColumn)}${startRow}`;
  const end = `${columnName(endColumn)}${endRow}`;
  return `${quoted(sheet)}!${start === end ? start : `${start}:${end}`}`;
}

// --- The server ---------------------------------------------------------------------------

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw googleError(413, 'INVALID_ARGUMENT', 'Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function newSpreadsheetId(): string {
  return randomBytes(33).toString('base64url');
}

function trimmedRow(row: readonly string[]): string[] {
  let end = row.length;
  while (end > 0 && (row[end - 1] ?? '') === '') end -= 1;
  return row.slice(0, end).map((cell) => cell ?? '');
}

export async function startGoogle(options: {
  port: number;
  accounts: GoogleAccount[];
  portFlag?: string;
}): Promise<GoogleHandle> {
  const startedAt = performance.now();
  await assertPortFree(options.port, 'Google emulator', options.portFlag ?? '--google-port');
  const accounts = new Map<string, KeyObject>(
    options.accounts.map((account) => [account.clientEmail, createPublicKey(account.publicKey)]),
  );
  const spreadsheets = new Map<string, Spreadsheet>();
  const tokens = new Map<string, { clientEmail: string; expiresAt: number }>();
  const faults: GoogleFault[] = [];
  const writes: GoogleWrite[] = [];
  let tokenRequests = 0;
  let tokensIssued = 0;
  let nextSheetId = 1;
  let endpoint = '';

  const spreadsheetOf = (id: string) => {
    const found = spreadsheets.get(id);
    if (!found) throw new Error(`no spreadsheet ${id}`);
    return found;
  };
  const sheetOf = (spreadsheet: Spreadsheet, title: string | undefined, range: string) => {
    const sheet =
      title === undefined
        ? spreadsheet.sheets[0]
        : spreadsheet.sheets.find((s) => s.title === title);
    if (!sheet) throw googleError(400, 'INVALID_ARGUMENT', `Unable to parse range: ${range}`);
    return sheet;
  };

  const createSpreadsheet: GoogleHandle['createSpreadsheet'] = (input) => {
    const spreadsheetId = input.spreadsheetId ?? newSpreadsheetId();
    spreadsheets.set(spreadsheetId, {
      spreadsheetId,
      title: input.title ?? 'Untitled spreadsheet',
      sheets: (input.sheets.length > 0 ? input.sheets : ['Sheet1']).map((title) => ({
        sheetId: nextSheetId++,
        title,
        grid: [],
      })),
      sharedWith: new Set(input.sharedWith ?? []),
    });
    return spreadsheetId;
  };

  function takeFault(method: GoogleMethod, spreadsheetId?: string): GoogleFault | undefined {
    const index = faults.findIndex(
      (fault) =>
        (fault.method === undefined || fault.method === method) &&
        (fault.spreadsheetId === undefined || fault.spreadsheetId === spreadsheetId),
    );
    return index === -1 ? undefined : faults.splice(index, 1)[0];
  }

  function issueToken(form: URLSearchParams): unknown {
    const invalid = (description: string) =>
      new Refusal(400, { error: 'invalid_grant', error_description: description });
    if (form.get('grant_type') !== JWT_BEARER_GRANT) {
      throw new Refusal(400, {
        error: 'unsupported_grant_type',
        error_description: 'Invalid grant_type.',
      });
    }
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) throw invalid('Invalid JWT.');
    const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
    let header: { alg?: unknown };
    let claims: { iss?: unknown; scope?: unknown; aud?: unknown; iat?: unknown; exp?: unknown };
    try {
      header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8'));
    } catch {
      throw invalid('Invalid JWT.');
    }
    if (header.alg !== 'RS256') throw invalid('Invalid JWT: alg must be RS256.');
    const publicKey = typeof claims.iss === 'string' ? accounts.get(claims.iss) : undefined;
    if (!publicKey) throw invalid('Invalid JWT: unknown issuer.');
    const signed = createVerify('RSA-SHA256')
      .update(`${headerPart}.${claimsPart}`)
      .verify(publicKey, Buffer.from(signaturePart, 'base64url'));
    if (!signed) throw invalid('Invalid JWT Signature.');
    if (claims.aud !== `${endpoint}/token`) throw invalid('Invalid JWT: aud is not the token URL.');
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    if (!scopes.includes(SHEETS_SCOPE)) throw invalid('Invalid JWT: scope lacks spreadsheets.');
    const now = Math.floor(Date.now() / 1000);
    const { iat, exp } = claims;
    if (
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      exp <= now ||
      iat > now + 300 ||
      exp - iat > 3600
    ) {
      throw invalid(
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    }
    const accessToken = `ya29.local-${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, {
      clientEmail: claims.iss as string,
      expiresAt: now + TOKEN_LIFETIME_SECONDS,
    });
    tokensIssued += 1;
    return { access_token: accessToken, expires_in: TOKEN_LIFETIME_SECONDS, token_type: 'Bearer' };
  }

  function caller(req: IncomingMessage): string {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const token = match ? tokens.get(match[1]!) : undefined;
    if (!token || token.expiresAt <= Math.floor(Date.now() / 1000)) {
      throw googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    return token.clientEmail;
  }

  function readable(id: string, clientEmail: string): Spreadsheet {
    const spreadsheet = spreadsheets.get(id);
    if (!spreadsheet) throw googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (!spreadsheet.sharedWith.has(clientEmail)) {
      throw googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    }
    return spreadsheet;
  }

  function getValues(spreadsheet: Spreadsheet, range: string) {
    const cells = parseA1(range);
    const sheet = sheetOf(spreadsheet, cells.sheet, range);
    const lastRow = Math.min(cells.endRow, sheet.grid.length);
    const values: string[][] = [];
    for (let row = cells.startRow; row <= lastRow; row += 1) {
      const stored = sheet.grid[row - 1] ?? [];
      const end = Math.min(cells.endColumn + 1, stored.length);
      values.push(trimmedRow(stored.slice(cells.startColumn, end)));
    }
    while (values.length > 0 && values.at(-1)!.length === 0) values.pop();
    const shownEndRow = Number.isFinite(cells.endRow)
      ? cells.endRow
      : Math.max(lastRow, cells.startRow);
    const shownEndColumn = Number.isFinite(cells.endColumn)
      ? cells.endColumn
      : Math.max(cells.startColumn, ...values.map((row) => cells.startColumn + row.length - 1));
    const answer: { range: string; majorDimension: 'ROWS'; values?: string[][] } = {
      range: a1(sheet.title, cells.startColumn, cells.startRow, shownEndColumn, shownEndRow),
      majorDimension: 'ROWS',
    };
    if (values.length > 0) answer.values = values;
    return answer;
  }

  function writeCells(sheet: Sheet, startRow: number, startColumn: number, values: string[][]) {
    for (const [offset, row] of values.entries()) {
      const rowIndex = startRow - 1 + offset;
      if (rowIndex >= MAX_ROWS || startColumn + row.length > MAX_COLUMNS) {
        throw googleError(
          400,
          'INVALID_ARGUMENT',
          'This action would increase the number of cells above the limit.',
        );
      }
      while (sheet.grid.length <= rowIndex) sheet.grid.push([]);
      const target = sheet.grid[rowIndex]!;
      for (const [column, cell] of row.entries()) {
        while (target.length < startColumn + column) target.push('');
        target[startColumn + column] = cell;
      }
    }
  }

  function valuesOf(body: string): string[][] {
    let parsed: { values?: unknown };
    try {
      parsed = JSON.parse(body);
    } catch {
      throw googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    if (!Array.isArray(parsed.values) || !parsed.values.every(Array.isArray)) {
      throw googleError(400, 'INVALID_ARGUMENT', 'Invalid values: expected rows of cells.');
    }
    return (parsed.values as unknown[][]).map((row) =>
      row.map((cell) => {
        if (cell !== null && typeof cell === 'object') {
          throw googleError(
            400,
            'INVALID_ARGUMENT',
            'Invalid value: a cell must be text, a number or a boolean.',
          );
        }
        const text = cell === null || cell === undefined ? '' : String(cell);
        if (text.length > MAX_CELL_CHARACTERS) {
          throw googleError(
            400,
            'INVALID_ARGUMENT',
            `Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`,
          );
        }
        return text;
      }),
    );
  }

  function requireRaw(
    query: URLSearchParams,
    method: GoogleWrite['method'],
    id: string,
    range: string,
  ) {
    const option = query.get('valueInputOption');
    writes.push({ method, spreadsheetId: id, range, valueInputOption: option });
    if (option !== 'RAW') {
      // Google would take USER_ENTERED too (and run formulas); the service must never send it.
      throw googleError(
        400,
        'INVALID_ARGUMENT',
        'valueInputOption must be RAW (the only option the service sends).',
      );
    }
  }

  function updateValues(spreadsheet: Spreadsheet, range: string, body: string) {
    const cells = parseA1(range);
    const sheet = sheetOf(spreadsheet, cells.sheet, range);
    const values = valuesOf(body);
    const width = Math.max(0, ...values.map((row) => row.length));
    if (
      values.length > cells.endRow - cells.startRow + 1 ||
      width > cells.endColumn - cells.startColumn + 1
    ) {
      throw googleError(
        400,
        'INVALID_ARGUMENT',
        `Requested writing within range [${range}], but tried writing past it.`,
      );
    }
    writeCells(sheet, cells.startRow, cells.startColumn, values);
    return {
      spreadsheetId: spreadsheet.spreadsheetId,
      updatedRange: a1(
        sheet.title,
        cells.startColumn,
        cells.startRow,
        cells.startColumn + Math.max(width, 1) - 1,
        cells.startRow + Math.max(values.length, 1) - 1,
      ),
      updatedRows: values.length,
      updatedColumns: width,
      updatedCells: values.reduce((sum, row) => sum + row.length, 0),
    };
  }

  function appendValues(spreadsheet: Spreadsheet, range: string, body: string) {
    const cells = parseA1(range);
    const sheet = sheetOf(spreadsheet, cells.sheet, range);
    const values = valuesOf(body);
    // The table is the sheet's data from the range's first row down: rows go after its last row.
    let last = sheet.grid.length;
    while (last > 0 && trimmedRow(sheet.grid[last - 1]!).length === 0) last -= 1;
    const startRow = Math.max(last + 1, cells.startRow);
    const tableWidth = Math.max(
      1,
      ...sheet.grid.slice(0, last).map((row) => trimmedRow(row).length),
    );
    writeCells(sheet, startRow, cells.startColumn, values);
    const width = Math.max(1, ...values.map((row) => row.length));
    const answer: Record<string, unknown> = {
      spreadsheetId: spreadsheet.spreadsheetId,
      updates: {
        spreadsheetId: spreadsheet.spreadsheetId,
        updatedRange: a1(
          sheet.title,
          cells.startColumn,
          startRow,
          cells.startColumn + width - 1,
          startRow + values.length - 1,
        ),
        updatedRows: values.length,
        updatedColumns: width,
        updatedCells: values.reduce((sum, row) => sum + row.length, 0),
      },
    };
    if (last >= cells.startRow)
      answer.tableRange = a1(sheet.title, 0, cells.startRow, tableWidth - 1, last);
    return answer;
  }

  async function sheetsApi(
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
  ): Promise<{ method: GoogleMethod; spreadsheetId: string; run: () => unknown }> {
    const match = /^\/v4\/spreadsheets\/([^/]+)(?:\/values\/([^/]+))?$/.exec(path);
    if (!match) throw googleError(404, 'NOT_FOUND', 'Not found.');
    const id = decodeURIComponent(match[1]!);
    const rawRange = match[2];
    if (rawRange === undefined) {
      if (req.method !== 'GET') throw googleError(405, 'INVALID_ARGUMENT', 'Method not allowed.');
      const email = caller(req);
      return {
        method: 'get',
        spreadsheetId: id,
        run: () => {
          const spreadsheet = readable(id, email);
          return {
            spreadsheetId: id,
            properties: { title: spreadsheet.title, locale: 'en_US', timeZone: 'Etc/GMT' },
            sheets: spreadsheet.sheets.map((sheet, index) => ({
              properties: {
                sheetId: sheet.sheetId,
                title: sheet.title,
                index,
                sheetType: 'GRID',
                gridProperties: { rowCount: Math.max(1000, sheet.grid.length), columnCount: 26 },
              },
            })),
          };
        },
      };
    }
    const appending = rawRange.endsWith(':append');
    const range = decodeURIComponent(appending ? rawRange.slice(0, -':append'.length) : rawRange);
    const body = req.method === 'GET' ? '' : await readBody(req);
    const email = caller(req);
    if (req.method === 'GET' && !appending) {
      return {
        method: 'values.get',
        spreadsheetId: id,
        run: () => getValues(readable(id, email), range),
      };
    }
    if (req.method === 'PUT' && !appending) {
      return {
        method: 'values.update',
        spreadsheetId: id,
        run: () => {
          const spreadsheet = readable(id, email);
          requireRaw(query, 'values.update', id, range);
          return updateValues(spreadsheet, range, body);
        },
      };
    }
    if (req.method === 'POST' && appending) {
      return {
        method: 'values.append',
        spreadsheetId: id,
        run: () => {
          const spreadsheet = readable(id, email);
          requireRaw(query, 'values.append', id, range);
          return appendValues(spreadsheet, range, body);
        },
      };
    }
    throw googleError(405, 'INVALID_ARGUMENT', 'Method not allowed.');
  }

  /** Applies a fault to the request about to be answered; true when it took the answer over. */
  function faulted(
    method: GoogleMethod,
    res: ServerResponse,
    run: () => unknown,
    spreadsheetId?: string,
  ): boolean {
    const fault = takeFault(method, spreadsheetId);
    if (!fault) return false;
    if ('hang' in fault) {
      try {
        run();
      } catch {
        // Applied or not, the caller hears nothing.
      }
      return true;
    }
    const name = STATUS_NAMES[fault.status] ?? 'UNKNOWN';
    send(
      res,
      fault.status,
      method === 'token'
        ? { error: 'temporarily_unavailable', error_description: `Injected ${fault.status}` }
        : { error: { code: fault.status, message: `Injected ${fault.status}`, status: name } },
      fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
    );
    return true;
  }

  async function controls(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body =
      req.method === 'GET'
        ? {}
        : (JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>);
    if (req.method === 'GET' && path === '/emulator/stats') return send(res, 200, handle.stats());
    if (req.method === 'POST' && path === '/emulator/spreadsheets') {
      const sheets = Array.isArray(body.sheets) ? body.sheets.map(String) : [];
      const sharedWith = Array.isArray(body.sharedWith) ? body.sharedWith.map(String) : [];
      const title = typeof body.title === 'string' ? body.title : undefined;
      return send(res, 201, { spreadsheetId: createSpreadsheet({ title, sheets, sharedWith }) });
    }
    const share = /^\/emulator\/spreadsheets\/([^/]+)\/share$/.exec(path);
    if (
      share &&
      (req.method === 'POST' || req.method === 'DELETE') &&
      typeof body.email === 'string'
    ) {
      const id = decodeURIComponent(share[1]!);
      if (!spreadsheets.has(id)) return send(res, 404, { message: 'no such spreadsheet' });
      if (req.method === 'POST') handle.share(id, body.email);
      else handle.unshare(id, body.email);
      return send(res, 200, { sharedWith: [...spreadsheetOf(id).sharedWith] });
    }
    if (req.method === 'POST' && path === '/emulator/inject') {
      const fault = faultOf(body);
      if (!fault) {
        return send(res, 400, {
          message:
            'expected {"status": 100-599, "retryAfter"?} or {"hang": true}, "method"? one of token, get, values.get, values.update, values.append',
        });
      }
      handle.inject(fault);
      return send(res, 200, { queued: faults.length });
    }
    if (req.method === 'POST' && path === '/emulator/revoke-tokens') {
      handle.revokeTokens();
      return send(res, 200, {});
    }
    return send(res, 404, { message: 'not found' });
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    try {
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page([...spreadsheets.values()]).text);
        return;
      }
      if (path.startsWith('/emulator/')) return await controls(req, res, path);
      if (path === '/token' && req.method === 'POST') {
        tokenRequests += 1;
        const form = new URLSearchParams(await readBody(req));
        if (faulted('token', res, () => issueToken(form))) return;
        return send(res, 200, issueToken(form));
      }
      // The raw path: an encoded range keeps its own `:` apart from `:append`.
      const rawPath = (req.url ?? '/').split('?', 1)[0]!;
      const call = await sheetsApi(req, rawPath, url.searchParams);
      if (faulted(call.method, res, call.run, call.spreadsheetId)) return;
      return send(res, 200, call.run());
    } catch (error) {
      if (error instanceof Refusal) return send(res, error.status, error.body);
      if (error instanceof SyntaxError) return send(res, 400, { message: 'invalid JSON' });
      send(res, 500, { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } });
    }
  }

  const server = createServer((req, res) => {
    void route(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  endpoint = `http://${LOOPBACK}:${port}`;

  const handle: GoogleHandle = {
    endpoint,
    port,
    tokenUrl: `${endpoint}/token`,
    sheetsApiUrl: endpoint,
    pageUrl: `${endpoint}/`,
    startupMs: 0,
    createSpreadsheet,
    share: (id, email) => {
      spreadsheetOf(id).sharedWith.add(email);
    },
    unshare: (id, email) => {
      spreadsheetOf(id).sharedWith.delete(email);
    },
    grid: (id, title) => {
      const sheet = spreadsheetOf(id).sheets.find((s) => s.title === title);
      if (!sheet) throw new Error(`no sheet ${title}`);
      return sheet.grid.map((row) => [...row]);
    },
    setGrid: (id, title, grid) => {
      const sheet = spreadsheetOf(id).sheets.find((s) => s.title === title);
      if (!sheet) throw new Error(`no sheet ${title}`);
      sheet.grid = grid.map((row) => [...row]);
    },
    inject: (fault) => {
      faults.push(fault);
    },
    revokeTokens: () => tokens.clear(),
    stats: () => ({ tokenRequests, tokensIssued, writes: [...writes] }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  handle.startupMs = Math.round(performance.now() - startedAt);
  return handle;
}

const METHODS: readonly GoogleMethod[] = [
  'token',
  'get',
  'values.get',
  'values.update',
  'values.append',
];

/** A fault from the control's JSON, or undefined when it is not one. */
function faultOf(body: Record<string, unknown>): GoogleFault | undefined {
  const { method, spreadsheetId } = body;
  if (method !== undefined && !METHODS.includes(method as GoogleMethod)) return undefined;
  if (
    spreadsheetId !== undefined &&
    (typeof spreadsheetId !== 'string' || !/^[\w-]{1,100}$/.test(spreadsheetId))
  ) {
    return undefined;
  }
  const scope: FaultScope = {
    ...(method === undefined ? {} : { method: method as GoogleMethod }),
    ...(spreadsheetId === undefined ? {} : { spreadsheetId }),
  };
  if (body.hang === true) return { ...scope, hang: true };
  const { status, retryAfter } = body;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
    return undefined;
  }
  if (retryAfter !== undefined && (typeof retryAfter !== 'string' || /[\r\n]/.test(retryAfter))) {
    return undefined;
  }
  return { ...scope, status, ...(retryAfter === undefined ? {} : { retryAfter }) };
}

// --- The page -----------------------------------------------------------------------------

function sheetTable(sheet: Sheet): SafeHtml {
  const rows = sheet.grid.slice(0, PAGE_ROWS);
  const width = Math.min(PAGE_COLUMNS, Math.max(1, ...rows.map((row) => trimmedRow(row).length)));
  const columns = Array.from({ length: width }, (_, index) => columnName(index));
  return html`<h3>${sheet.title}</h3>
<table>
<thead><tr><th scope="col"></th>${columns.map((name) => html`<th scope="col">${name}</th>`)}</tr></thead>
<tbody>${rows.map(
    (row, index) =>
      html`<tr><th scope="row">${index + 1}</th>${columns.map((_, column) => html`<td>${row[column] ?? ''}</td>`)}</tr>`,
  )}</tbody>
</table>${sheet.grid.length > PAGE_ROWS ? html`<p>${sheet.grid.length - PAGE_ROWS} more rows not shown.</p>` : ''}`;
}

function page(spreadsheets: Spreadsheet[]): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local Google Sheets</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;margin-bottom:1rem}th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;white-space:pre-wrap;max-width:24rem;overflow:hidden}th{background:#eee}</style>
</head><body><main>
<h1>Local Google Sheets</h1>
${
  spreadsheets.length === 0
    ? html`<p>No spreadsheet yet.</p>`
    : spreadsheets.map(
        (spreadsheet) => html`<section><h2>${spreadsheet.title}</h2>
<p>Id <code>${spreadsheet.spreadsheetId}</code>; shared with ${[...spreadsheet.sharedWith].join(', ') || 'nobody'}.</p>
${spreadsheet.sheets.map(sheetTable)}</section>`,
      )
}
</main></body></html>
`;
}
