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
