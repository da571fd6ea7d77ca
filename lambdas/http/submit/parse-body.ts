import { ServiceError } from '#domain/errors.ts';
import type { BodyLimits, ParsedBody } from './body.ts';
import { describeBytes } from './file-rules.ts';

export type { BodyLimits, ParsedBody, ReceivedFile } from './body.ts';
export { cleanFileName, REFUSED_FILE_TYPES, refusedFileReason } from './file-rules.ts';

/**
 * At most this many pairs come out of one body; more are dropped. The domain keeps 50 names,
 * so the cap only bounds the work a hostile body can cause.
 */
export const MAX_BODY_PAIRS = 1000;

/** A Content-Type value split into its lower-case `type/subtype` and its parameters. */
export interface MediaType {
  essence: string;
  /** Parameter names lower case; values as sent, quotes and escapes removed. First one wins. */
  params: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
/** RFC 2046 boundary characters, allowing up to 200 of them where the RFC says 70. */
const BOUNDARY = /^[0-9a-z'()+_,./:=? -]{0,199}[0-9a-z'()+_,./:=?-]$/i;

const unsupported = (message: string) => new ServiceError('unsupported_media_type', message);

/**
 * Parses the public submit endpoint's body by its Content-Type: urlencoded, multipart or a
 * JSON object. Throws only `ServiceError`: 413 payload_too_large when the body is over
 * `maxBodyBytes`, 415 unsupported_media_type for any other type or a body that cannot be read.
 * File problems come back in `fileError` instead (see ParsedBody).
 */
export async function parseSubmitBody(
  contentType: string | undefined,
  body: Buffer,
  limits: BodyLimits,
): Promise<ParsedBody> {
  if (body.length > limits.maxBodyBytes) {
    throw new ServiceError(
      'payload_too_large',
      `The request body may be at most ${describeBytes(limits.maxBodyBytes)}`,
    );
  }
  const mediaType = contentType === undefined ? undefined : parseMediaType(contentType);
  switch (mediaType?.essence) {
    case 'application/x-www-form-urlencoded':
      return { pairs: readUrlEncoded(body), files: [] };
    case 'application/json':
      return { pairs: readJsonObject(body), files: [] };
    case 'multipart/form-data': {
      const boundary = mediaType.params.get('boundary');
      if (boundary === undefined || !BOUNDARY.test(boundary)) {
        throw unsupported('A multipart body needs a valid boundary parameter');
      }
      // The multipart parser (busboy) is loaded by the first multipart post only.
      const { readMultipart } = await import('./multipart.ts');
      return readMultipart(boundary, body, limits, MAX_BODY_PAIRS);
    }
    default:
      throw unsupported(
        'Send application/x-www-form-urlencoded, multipart/form-data or application/json',
      );
  }
}

/**
 * Tolerant Content-Type parse: case-insensitive type, whitespace anywhere between parts,
 * quoted or bare parameter values. Malformed parameters are skipped; a malformed
 * `type/subtype` gives undefined.
 */
export function parseMediaType(header: string): MediaType | undefined {
  const firstSemicolon = header.indexOf(';');
  const essence = (firstSemicolon === -1 ? header : header.slice(0, firstSemicolon))
    .trim()
    .toLowerCase();
  const [type, subtype, ...rest] = essence.split('/');
  if (!type || !subtype || rest.length > 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) {
    return undefined;
  }
  const params = new Map<string, string>();
  let position = firstSemicolon === -1 ? header.length : firstSemicolon + 1;
  while (position < header.length) {
    const equals = header.indexOf('=', position);
    const semicolon = header.indexOf(';', position);
    if (equals === -1 || (semicolon !== -1 && semicolon < equals)) {
      position = semicolon === -1 ? header.length : semicolon + 1;
      continue;
    }
    const name = header.slice(position, equals).trim().toLowerCase();
    const { value, end } = readParamValue(header, equals + 1);
    if (TOKEN.test(name) && !params.has(name)) params.set(name, value);
    position = end + 1;
  }
  return { essence, params };
}

/** Reads a bare or quoted value from `start`; `end` is the index of the `;` after it (or the length). */
function readParamValue(header: string, start: number): { value: string; end: number } {
  let index = start;
  while (header[index] === ' ' || header[index] === '\t') index += 1;
  if (header[index] !== '"') {
    const semicolon = header.indexOf(';', index);
    const end = semicolon === -1 ? header.length : semicolon;
    return { value: header.slice(index, end).trim(), end };
  }
  let value = '';
  for (index += 1; index < header.length && header[index] !== '"'; index += 1) {
    if (header[index] === '\\' && index + 1 < header.length) index += 1;
    value += header[index];
  }
  const semicolon = header.indexOf(';', index);
  return { value, end: semicolon === -1 ? header.length : semicolon };
}

/**
 * URLSearchParams semantics on the body decoded as UTF-8 (the charset parameter is ignored:
 * browsers post UTF-8 from UTF-8 pages, and bad bytes become U+FFFD instead of failing).
 */
function readUrlEncoded(body: Buffer): Array<[string, string]> {
  let text = body.toString('utf8');
  // The URLSearchParams constructor strips one leading "?", the form-urlencoded parser does not.
  if (text.startsWith('?')) text = `&${text}`;
  return Array.from(new URLSearchParams(firstSegments(text, MAX_BODY_PAIRS)));
}

/** The text up to its `limit`-th non-empty `&`-separated segment, so parsing stays bounded. */
function firstSegments(text: string, limit: number): string {
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    const ampersand = text.indexOf('&', start);
    const end = ampersand === -1 ? text.length : ampersand;
    if (end > start) {
      count += 1;
      if (count === limit) return text.slice(0, end);
    }
    if (ampersand === -1) break;
    start = ampersand + 1;
  }
  return text;
}

/**
 * A top-level JSON object flattened to pairs: strings as sent, numbers and booleans through
 * String(), null as "", arrays as one pair per element, nested objects as their JSON text.
 * Nesting depth needs no guard for JSON.parse (V8's parser is iterative), but re-serialising
 * a deeply nested value can overflow the stack, which is turned into a 415 here.
 */
function readJsonObject(body: Buffer): Array<[string, string]> {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unsupported('The body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw unsupported('The JSON body must be an object');
  }
  const pairs: Array<[string, string]> = [];
  try {
    for (const [name, answer] of Object.entries(value)) {
      for (const item of Array.isArray(answer) ? answer : [answer]) {
        if (pairs.length === MAX_BODY_PAIRS) return pairs;
        pairs.push([name, jsonAnswerText(item)]);
      }
    }
  } catch {
    throw unsupported('The JSON body nests too deeply');
  }
  return pairs;
}

function jsonAnswerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
