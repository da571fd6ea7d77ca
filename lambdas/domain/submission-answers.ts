import { MAX_ANSWER_LENGTH } from './field-rules.ts';

/**
 * A post's text fields as the service keeps them (docs/submit.md#field-rules,
 * docs/submit.md#special-fields). The body parsers hand over name/value
 * pairs in the order received; everything after works on the answers and
 * special fields produced here.
 */

/** Submitted fields per request (special fields do not count; docs/submit.md#field-rules). */
export const MAX_SUBMITTED_FIELDS = 50;
/** Submitted field name, in code points, measured as stored (after `[]` removal). */
export const MAX_FIELD_NAME_LENGTH = 200;
/** A value, and a joined repeated value, is cut to this many code points. */
export const MAX_VALUE_LENGTH = MAX_ANSWER_LENGTH;
/**
 * The product's minimum fill time: a post sooner than this after `_t` (when the page was
 * drawn) is a bot. The default of the `minFillTimeMs` setting, which the check is given.
 */
export const MIN_FILL_MS = 2000;

/** Fields that change handling and are never stored. */
export interface SpecialFields {
  /** Honeypot: any content means a bot. */
  gotcha?: string;
  /** `_t`: Unix ms when the page was rendered, as sent. */
  renderedAt?: string;
  redirect?: string;
  subject?: string;
  replyTo?: string;
  /** From `cf-turnstile-response` or `_captcha`. */
  captchaToken?: string;
  /** `_views`: the page counted its view (the hosted page, the embed, the pasted form's image). */
  views?: string;
}

export interface NormalizedAnswers {
  /** Answers by field name: a plain object, safe to store and to serialize. */
  data: Record<string, string>;
  special: SpecialFields;
}

const SPECIAL_NAMES: Record<string, keyof SpecialFields> = {
  _gotcha: 'gotcha',
  _t: 'renderedAt',
  _redirect: 'redirect',
  _subject: 'subject',
  _replyto: 'replyTo',
  _captcha: 'captchaToken',
  'cf-turnstile-response': 'captchaToken',
  _views: 'views',
};

/**
 * The first `max` code points of `value`. Counting code points (as the
 * field checks count `minLength`/`maxLength`) means a cut never splits a
 * surrogate pair.
 */
export function cutToCodePoints(value: string, max: number): string {
  // A string of at most `max` UTF-16 units has at most `max` code points.
  if (value.length <= max) return value;
  let index = 0;
  for (let count = 0; count < max && index < value.length; count++) {
    const unit = value.charCodeAt(index);
    const pair = unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(value.charCodeAt(index + 1));
    index += pair ? 2 : 1;
  }
  return value.slice(0, index);
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

const codePointCount = (value: string) => {
  let count = 0;
  for (const _ of value) count++;
  return count;
};

/**
 * The stored form of a sent name, or null when it is not kept. Null bytes
 * are stripped (they break e-mail headers and CSV tools, and no form means
 * them). A name over 200 code points is dropped entirely rather than cut:
 * a cut name is one the page never sent, and two long names sharing a
 * prefix would silently merge into one answer.
 */
function storedName(sent: string): string | null {
  let name = sent.replaceAll('\u0000', '').toWellFormed();
  if (name.endsWith('[]')) name = name.slice(0, -2);
  if (name === '') return null;
  if (name.length > MAX_FIELD_NAME_LENGTH && codePointCount(name) > MAX_FIELD_NAME_LENGTH) {
    return null;
  }
  return name;
}

/**
 * The answer name a file was sent under, stored with the file so it is shown
 * at its field (docs/submissions.md#files): named as its answers are, or
 * undefined when no name would be kept.
 */
export function storedFileField(sent: string): string | undefined {
  return storedName(sent) ?? undefined;
}

// hasOwn, not `in`: `constructor` is inherited by every object and is an ordinary answer.
const specialKeyOf = (name: string) =>
  Object.hasOwn(SPECIAL_NAMES, name) ? SPECIAL_NAMES[name] : undefined;

/**
 * Turns the post's text fields into stored answers and special fields.
 *
 * - A trailing `[]` is removed; empty names and names over 200 code points
 *   are ignored; U+0000 is stripped from names (values keep it).
 * - Names starting with `_` and the captcha token names never reach `data`;
 *   the known ones fill `special` (first non-empty value wins, so a blank
 *   duplicate cannot hide a filled honeypot) and the rest are dropped.
 * - Up to 50 distinct answer names in order of first appearance; later new
 *   names are ignored, repeats of kept names still join.
 * - Repeated names join with `,`; every value, joined or not, is cut to
 *   10,000 code points. Lone surrogates (possible from JSON escapes) become
 *   U+FFFD so storage and e-mail always get well-formed text.
 * - Names are otherwise kept as sent (case included); `constructor` or
 *   `toString` are ordinary answers.
 */
export function normalizeAnswers(
  pairs: ReadonlyArray<readonly [name: string, value: string]>,
): NormalizedAnswers {
  // A Map keeps insertion order and has no inherited keys to collide with.
  const answers = new Map<string, string[]>();
  const special: SpecialFields = {};
  for (const [sentName, sentValue] of pairs) {
    const name = storedName(sentName);
    if (name === null) continue;
    const value = sentValue.toWellFormed();
    const key = specialKeyOf(name);
    if (key || name.startsWith('_')) {
      if (key && !special[key] && value !== '')
        special[key] = cutToCodePoints(value, MAX_VALUE_LENGTH);
      continue;
    }
    const parts = answers.get(name);
    if (parts) parts.push(value);
    else if (answers.size < MAX_SUBMITTED_FIELDS) answers.set(name, [value]);
  }
  const data: Record<string, string> = {};
  for (const [name, parts] of answers) {
    // defineProperty: an own data property whatever the name (no setter runs).
    Object.defineProperty(data, name, {
      value: cutToCodePoints(parts.join(','), MAX_VALUE_LENGTH),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { data, special };
}

/** Empty (`422`, docs/submit.md#processing-order step 7): no visible answer and no file. */
export function isEmptySubmission(data: Record<string, string>, fileCount: number): boolean {
  if (fileCount > 0) return false;
  return Object.values(data).every((value) => value.trim() === '');
}

/**
 * The quiet drops of processing step 6 (docs/submit.md#processing-order):
 * a filled honeypot, or `_t` from 0 to under `minFillMs` (the `minFillTimeMs`
 * setting, 2 s by default) before now. A `_t` in the
 * future is no signal (docs/submit.md#the-fill-time-check): it is what a
 * page stamped from a visitor's clock that runs fast sends, and a post is
 * never lost to a visitor's clock. A `_t` that is not a number is ignored,
 * not treated as a bot: sites that template it wrong would otherwise lose
 * every real post without any error to notice.
 */
export function isBotByHoneypotOrTiming(
  special: SpecialFields,
  nowMs: number,
  minFillMs: number,
): boolean {
  if (special.gotcha) return true;
  const sent = special.renderedAt?.trim();
  if (!sent) return false;
  const renderedAt = Number(sent);
  if (!Number.isFinite(renderedAt)) return false;
  const elapsed = nowMs - renderedAt;
  return elapsed >= 0 && elapsed < minFillMs;
}
