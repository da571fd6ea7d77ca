import { keyedHashOf, normalAddress } from './email-index.ts';
import type { FormPage } from './form-logic.ts';
import type { FieldDefinition, PersonField } from './form-model.ts';
import { mailboxOf } from './mailbox.ts';
import type { Issue } from './validation-issues.ts';

/**
 * One answer per person (docs/forms.md#one-answer-per-person): the form's
 * `unique` setting names an email field, and a second submission whose
 * address reaches the same mailbox is kept in spam as `duplicate_person`
 * (docs/submit.md#one-answer-per-person). The place a person holds is one
 * item keyed by the keyed hash of that mailbox, never the address.
 */

/**
 * Why a form setting that names the address of the person answering
 * (`unique`, `confirmEmail`) cannot name this field, as an issue at `path`
 * (`unique.field`); undefined when it can. The field must be an `email`
 * field the form exists with, `required: true`, without `showIf` and, on a
 * form with pages, on the first (rules may skip any other): an address
 * every post carries. Checked on the form as it would be saved, so removing
 * or changing the field (or the pages) while the setting names it is
 * refused here.
 */
export function personFieldIssue(
  form: { fields: readonly FieldDefinition[] | null; pages?: readonly FormPage[] | null },
  fieldId: string,
  path: string,
): Issue | undefined {
  const field = (form.fields ?? []).find((candidate) => candidate.id === fieldId);
  const pages = form.pages ?? [];
  const problem = !field
    ? `Names no field of the form (${fieldId}); clear the setting (null) in the same request to remove the field`
    : field.type !== 'email'
      ? `Must name an email field; ${fieldId} is a ${field.type} field`
      : field.required !== true
        ? `Must name a required field; set required: true on ${fieldId}`
        : field.showIf !== undefined
          ? `Must name a field every post carries; ${fieldId} has a showIf rule`
          : pages.length > 1 && !pages[0]!.fields.includes(fieldId)
            ? `Must name a field of the first page, which every visitor sees; ${fieldId} is on a later one`
            : undefined;
  return problem ? { path, code: 'custom', message: problem } : undefined;
}

/**
 * The mailbox the `unique` field's answer reaches, folded as suppression
 * folds addresses (mailboxOf: case, `+tags`, Gmail's dots), after the
 * invisible characters the email index drops (normalAddress); undefined when the form has no
 * `unique` or the answer is not an address (such a post takes no place).
 */
export function personMailbox(
  unique: PersonField | null | undefined,
  data: Readonly<Record<string, string>>,
): string | undefined {
  if (!unique || !Object.hasOwn(data, unique.field)) return undefined;
  const answer = data[unique.field];
  if (typeof answer !== 'string') return undefined;
  const address = normalAddress(answer);
  return address ? mailboxOf(address) : undefined;
}

/**
 * The key of a person's place on a form: the keyed hash of their mailbox
 * under the team's email-index key (emailHash's), so no address is kept in
 * clear (docs/privacy.md#one-answer-per-person).
 */
export function personPlaceHash(secret: string, teamId: string, mailbox: string): string {
  return keyedHashOf(secret, teamId, mailbox);
}
