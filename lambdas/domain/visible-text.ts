/**
 * Characters that show nothing or change how the text around them shows:
 * controls (`\p{Cc}`), format characters (`\p{Cf}`: bidi controls such as
 * U+202E and U+061C, zero-width U+200B–U+200D, U+FEFF, soft hyphens, tags)
 * and the line and paragraph separators. By Unicode category, not by a hand
 * list, so characters added to those categories are covered too.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A visitor-supplied name as the service shows it (a file name in the API,
 * the CSV, emails): without hidden characters, so `invoice\u202Efdp.exe`
 * cannot pose as `invoiceexe.pdf` and two names that look alike are alike.
 */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, '');
}

/**
 * Format characters (`\p{Cf}`: zero-width space and joiners, soft hyphen,
 * word joiner, bidi marks, BOM, tags) and the controls that are not white
 * space: what a person cannot see, so two texts that differ only by them
 * read the same. The one rule by which an address is folded (the email
 * index, the mail path: docs/privacy.md#how-a-person-is-found) and by
 * which answers are compared (the duplicate check). White space is kept:
 * each caller says what it makes of it.
 */
const INVISIBLE = /\p{Cf}|(?!\s)\p{Cc}/gu;

export function withoutInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * The bidi controls (embeddings, overrides, isolates and marks: U+061C,
 * U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) removed, line breaks
 * and everything else kept: an answer shown in an email cannot reorder the
 * text around it (Trojan Source), and it keeps its paragraphs.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
