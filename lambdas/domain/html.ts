const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** HTML already safe (built by `html`, or trusted markup asked for by name with `raw`). */
export class SafeHtml {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** Markup the caller vouches for, passed through `html` unescaped. */
export const raw = (text: string) => new SafeHtml(text);

type Interpolated = string | number | SafeHtml | null | undefined | false | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template whose every interpolated value is escaped unless it is SafeHtml
 * (another `html` result, or `raw(...)`): markup cannot slip in through data.
 * `null`, `undefined` and `false` render nothing; arrays render each item.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(text);
}
