// The client itself, not ./api.ts: the model reads no page, so its unit tests need no DOM.
import { ApiError } from '#client/client.ts';
import { failureWords } from './data.ts';
import type { TeamView } from './model.ts';

/**
 * What the team's Privacy screen says (docs/dashboard.md#the-privacy-screen):
 * a person's submissions counted form by form from the export document
 * (`GET /v1/privacy/submissions`, docs/privacy.md#export-by-email), the
 * erase's answer in words, the file name of the download, the refusals of
 * both routes in words, and the choices of the team's `ipStorage`.
 */

/** One submission of the export document: the fields the screen reads (the rest is downloaded as is). */
export interface ExportedSubmission {
  formId: string;
  formName: string;
  [more: string]: unknown;
}

/** The export document, `{ "submissions": [...] }`. */
export interface PersonExport {
  submissions: ExportedSubmission[];
  /** The team's suppression entry for the address, kept in the download as the route gave it. */
  suppressed?: unknown;
}

/** How many of the person's submissions one form holds. */
export interface FormCount {
  formId: string;
  name: string;
  count: number;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * The export document as the typed client hands it: parsed when it came as
 * JSON (the route answers `application/json`), else its text parsed here.
 */
export function exportDocument(body: unknown): PersonExport {
  const value: unknown = typeof body === 'string' ? JSON.parse(body) : body;
  const submissions = (value as { submissions?: unknown } | null)?.submissions;
  if (!Array.isArray(submissions)) throw new Error('The export is not the document expected');
  // The whole document: the download must be the route's, member for member.
  return { ...(value as object), submissions: submissions as ExportedSubmission[] };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en');

/** The person's submissions counted by form, forms by name (the document's order is by form id). */
export function countsByForm(exported: PersonExport): FormCount[] {
  const counts = new Map<string, FormCount>();
  for (const { formId, formName } of exported.submissions) {
    const counted = counts.get(formId) ?? { formId, name: formName, count: 0 };
    counted.count++;
    counts.set(formId, counted);
  }
  return [...counts.values()].sort(byName);
}

/** "3 submissions in 2 forms hold ada@example.com.", or that none does. */
export function foundWords(email: string, counts: readonly FormCount[]): string {
  const total = counts.reduce((sum, form) => sum + form.count, 0);
  if (total === 0) return `No submission of the team's forms holds ${email}.`;
  return `${plural(total, 'submission')} in ${plural(counts.length, 'form')} ${total === 1 ? 'holds' : 'hold'} ${email}.`;
}

/** The erase's answer: how many were erased, in which forms (by name). */
export function erasedWords(answer: {
  count: number;
  forms: readonly { name: string; count: number }[];
}): string {
  if (answer.count === 0) return 'Nothing was left to erase: no submission holds this address.';
  const where = [...answer.forms]
    .sort(byName)
    .map((form) => `${form.count.toLocaleString('en')} in ${form.name}`);
  return `Erased ${plural(answer.count, 'submission')}: ${where.join(', ')}.`;
}

/**
 * The download's name says what it is: whose submissions, exported when
 * (`submissions-of-ada@example.com-2026-11-26.json`). Characters a file
 * system may refuse become `_`.
 */
export function exportFileName(email: string, now: Date): string {
  const safe = email.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 120);
  return `submissions-of-${safe}-${now.toISOString().slice(0, 10)}.json`;
}

/** The document as downloaded: the route's JSON, indented so a person can read it. */
export const exportFileText = (exported: PersonExport) => `${JSON.stringify(exported, null, 2)}\n`;

/**
 * The export arrived cut: it streams, so a failure after its first byte (or
 * its 190 MB bound) ends it without its closing bracket
 * (docs/privacy.md#when-an-export-fails), and it neither parses nor counts.
 */
export const CUT_EXPORT_WORDS =
  "This person's submissions could not be read whole: the export stopped before its end. Try again; if it stops again (past about 38,000 submissions), export their forms with Export CSV in each form's Actions menu. Erase still reaches them all.";

/** Whether a look-up's failure is a document cut short, not a refusal: no answer status at all. */
export const isCutExport = (failure: unknown) => !(failure instanceof ApiError);

/** The refusal with something to do in this screen's words; the rest as any action says them. */
export function privacyFailureWords(failure: unknown): string {
  if (failure instanceof ApiError && failure.code === 'incomplete')
    return 'The erase stopped at its time limit before reaching every submission (those reached are erased): press Erase again to finish.';
  return failureWords(failure);
}

/** A failure carrying this screen's words, for `useAction` (which says a failure's message). */
export function inPrivacyWords(failure: unknown): ApiError {
  const status = failure instanceof ApiError ? failure.status : 0;
  const code = failure instanceof ApiError ? failure.code : 'error';
  return new ApiError(status, code, privacyFailureWords(failure));
}

export type IpStorage = TeamView['ipStorage'];

/**
 * The team's `ipStorage` choices with what each means (docs/people.md#visitor-addresses):
 * a Record, so a value added to the API without words fails the typecheck.
 */
export const IP_STORAGE_WORDS: Record<IpStorage, { label: string; says: string }> = {
  address: {
    label: 'The address itself',
    says: "New submissions keep the sender's internet address as it reached the service: anyone who reads the submissions sees it.",
  },
  keyedHash: {
    label: 'A coded stand-in for the address',
    says: 'New submissions keep a code made from the address with a secret key instead: the same sender gets the same code in this team, so repeated senders still stand out, but nobody can read the address back from it.',
  },
};

export const IP_STORAGE_CHOICES = Object.keys(IP_STORAGE_WORDS) as IpStorage[];
