/**
 * A refused value in words for people: the settings and fields screens
 * check with the route's own schemas, whose issues read like "Too small:
 * expected array to have >=1 items", and the API's 400s carry the same. This
 * turns an issue (from either) into a plain sentence, never schema text nor
 * an API name (docs/dashboard.md#settings-and-fields).
 */

/** An issue as the page's schema check or a 400 `invalid_request` gives it. */
export interface RawIssue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  origin?: string;
  expected?: string;
  format?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** An API issue (`path` dotted, numbers as text) in the shape of a schema issue. */
export function fromApi(issue: { path: string; code?: string; message: string }): RawIssue {
  const path = issue.path
    .split('.')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  // The API keeps zod's English ("Too big: expected string to have <=254 characters"):
  // the kind of value and the bound are read back from it.
  const origin = /expected (\w+)/.exec(issue.message)?.[1];
  const bound = /[<>]=?\s*(-?\d+(?:\.\d+)?)/.exec(issue.message)?.[1];
  return {
    path,
    code: issue.code ?? 'custom',
    message: issue.message,
    origin,
    expected: origin,
    ...(bound === undefined ? {} : { minimum: Number(bound), maximum: Number(bound) }),
  };
}

/**
 * The domain's own messages that name API settings, in words. Others of its
 * messages are sentences already ("Must be in the future").
 */
const KNOWN: [RegExp, (found: RegExpExecArray) => string][] = [
  [/^Needs captchaSiteKey and captchaSecretKey/, () => 'Needs a Turnstile site key and secret key'],
  [
    /^Cannot be cleared while captchaEnabled/,
    () => 'Cannot be cleared while the captcha is asked for',
  ],
  [
    /^Cannot be removed while completionMode is redirect/,
    () => 'Cannot be removed while the form sends people to your page',
  ],
  [/^redirect needs a redirectUrl/, () => 'Needs the page to go to'],
  [
    /^Cannot be turned off while fields\.(\d+) is a file field/,
    (found) =>
      `Cannot be turned off while field ${Number(found[1]) + 1} is a file field: remove it on the Fields screen first`,
  ],
  [
    /^A file field needs the form to accept files/,
    () => 'A file field needs the form to accept files (Settings, Uploads)',
  ],
  [/^Must not exceed maxLength/, () => 'Must not be more than the longest answer'],
  [/^Must not exceed max$/, () => 'Must not be more than the largest number'],
  [/^Duplicate option "(.*)"$/s, (found) => `“${found[1]}” is listed twice`],
  [/^Duplicate field id "(.*)"$/s, (found) => `Another field already has the id “${found[1]}”`],
  [/^Not allowed on a (\w+) field$/, () => 'Not used by this type of field'],
  [/^Unknown or read-only form setting$/, () => 'Not a setting this page can change'],
];

/** Schema text or an API name: any camelCase word outside `{{…}}`, or zod's own phrasing. */
function looksTechnical(message: string): boolean {
  const outside = message.replace(/\{\{[^}]*\}\}/g, '');
  return (
    /\b[a-z]+[A-Z]\w*/.test(outside) ||
    /^(Too (small|big)|Invalid|Expected)\b/i.test(outside) ||
    /[<>]=/.test(outside)
  );
}

const bound = (value: number | bigint | undefined) =>
  value === undefined ? undefined : Number(value);

/**
 * The sentence for one issue (capitalized, no full stop). `entries` names a
 * list's items ("addresses", "options") for the bounds of the list itself.
 */
export function plainWords(issue: RawIssue, entries = 'entries'): string {
  const kind = issue.origin ?? issue.expected;
  const list = kind === 'array' || kind === 'set';
  switch (issue.code) {
    case 'too_small': {
      const n = bound(issue.minimum) ?? 1;
      if (list)
        return n <= 1 ? `Needs at least one of the ${entries}` : `Needs at least ${n} ${entries}`;
      if (kind === 'string')
        return n <= 1 ? 'Must not be empty' : `Must be at least ${n} characters`;
      return `Must be ${n} or more`;
    }
    case 'too_big': {
      const n = bound(issue.maximum);
      if (n === undefined) return 'Too large';
      if (list) return `Can have at most ${n} ${entries}`;
      if (kind === 'string') return `Must be at most ${n} characters`;
      return `Must be ${n} or less`;
    }
    case 'invalid_type':
      if (issue.expected === 'int') return 'Must be a whole number';
      if (issue.expected === 'number') return 'Must be a number';
      return 'Needs a value';
    case 'not_multiple_of':
      return 'Must be a whole number';
    case 'invalid_format':
      if (issue.format === 'email' || /email/i.test(issue.message))
        return 'Must be an email address';
      if (issue.format === 'datetime' || /ISO 8601/.test(issue.message))
        return 'Must be a date and time';
      if (!looksTechnical(issue.message)) return issue.message;
      return 'Is not in the form expected';
    case 'invalid_value':
    case 'invalid_union':
      return 'Choose one of the choices offered';
    default: {
      for (const [pattern, words] of KNOWN) {
        const found = pattern.exec(issue.message);
        if (found) return words(found);
      }
      return looksTechnical(issue.message) ? 'This value is not accepted' : issue.message;
    }
  }
}

/** A list's entries as sent, each with the line (from 1) it is on: blank lines are skipped. */
export function entriesOf(
  value: string | boolean | readonly string[],
): { text: string; line: number }[] {
  const rows = typeof value === 'string' ? value.split('\n') : Array.isArray(value) ? value : [];
  return rows
    .map((row, index) => ({ text: String(row).trim(), line: index + 1 }))
    .filter((entry) => entry.text !== '');
}

/** A sentence as it continues after "“value” …" or a colon: its first letter lower-cased. */
export const lowerFirst = (words: string) => words.charAt(0).toLowerCase() + words.slice(1);
