/**
 * The placeholders of the email settings (docs/delivery.md#placeholders):
 * which there are, where they may be written, how a template is checked at
 * save and filled at send. Shared by the email templates, the PATCH schema
 * and the dashboard (its insert buttons and the preview's marks).
 */

/** Placeholders that fill the same for every submission, whoever it goes to. */
export const FORM_PLACEHOLDERS = [
  'form.name',
  'form.id',
  'submission.id',
  'submission.createdAt',
] as const;

/** `{{field.<id>}}`: the submission's answer of that name. */
export const FIELD_PREFIX = 'field.';

/** The form settings whose text may hold placeholders. */
export const PLACEHOLDER_SETTINGS = ['notifySubject', 'autoreplySubject', 'autoreplyBody'] as const;

/** `_invalid` is stored beside the answers but is not one of them. */
const NOT_AN_ANSWER = '_invalid';

/**
 * `{{ name }}`: spaces inside the braces are allowed (trimmed in code: a
 * lazy group between two `\s*` backtracks quadratically over a long run of
 * spaces with no closing braces).
 */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export type PlaceholderKind = 'form' | 'field' | 'unknown';

/** One placeholder as written in a template. */
export interface PlaceholderUse {
  /** As written, braces and spaces included. */
  written: string;
  /** Inside the braces, trimmed: `form.name`, `field.email`. */
  name: string;
  kind: PlaceholderKind;
}

function kindOf(name: string): PlaceholderKind {
  if ((FORM_PLACEHOLDERS as readonly string[]).includes(name)) return 'form';
  if (name.startsWith(FIELD_PREFIX)) {
    const answer = name.slice(FIELD_PREFIX.length);
    return answer !== '' && answer !== NOT_AN_ANSWER ? 'field' : 'unknown';
  }
  return 'unknown';
}

/** Every placeholder of `template`, in order. */
export function placeholdersIn(template: string): PlaceholderUse[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => {
    const name = match[1]!.trim();
    return { written: match[0], name, kind: kindOf(name) };
  });
}

/** The known placeholders as the refusal lists them. */
export const KNOWN_PLACEHOLDERS_TEXT = `${FORM_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')} and {{field.<id>}} (the answer named <id>)`;

/**
 * Why `template` cannot be saved, or undefined: it holds a `{{…}}` that is
 * not a known placeholder, which would fill with nothing. Any answer name is
 * allowed after `field.`, also one not among the form's `fields`: a
 * website's own HTML form may post names the list does not have
 * (docs/delivery.md#placeholders).
 */
export function placeholderProblem(template: string): string | undefined {
  const unknown = [
    ...new Set(
      placeholdersIn(template)
        .filter((use) => use.kind === 'unknown')
        .map((use) => use.written),
    ),
  ];
  if (unknown.length === 0) return undefined;
  const named =
    unknown.length === 1
      ? `Unknown placeholder ${unknown[0]}`
      : `Unknown placeholders ${unknown.join(', ')}`;
  return `${named}. The placeholders are ${KNOWN_PLACEHOLDERS_TEXT}.`;
}

export interface PlaceholderValues {
  form: { id: string; name: string };
  submission: { id: string; createdAt: string };
  /** The answer of a name, or undefined when there is none (or answers may not fill). */
  answer: (name: string) => string | undefined;
}

/**
 * `template` with its placeholders filled. A field placeholder with no
 * answer fills with nothing; so does an unknown placeholder, which only a
 * form saved before they were refused can hold: nobody receives braces
 * (docs/delivery.md#placeholders). Values are inserted as they are: the
 * caller cleans or escapes the result for where it goes.
 */
export function fillTemplate(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (_written, inside: string) => {
    const name = inside.trim();
    switch (name) {
      case 'form.name':
        return values.form.name;
      case 'form.id':
        return values.form.id;
      case 'submission.id':
        return values.submission.id;
      case 'submission.createdAt':
        return values.submission.createdAt;
    }
    if (kindOf(name) === 'field') return values.answer(name.slice(FIELD_PREFIX.length)) ?? '';
    return '';
  });
}
