import { config } from '#config';
import type { FormRecord } from '#domain/form-model.ts';
import { isFormKey } from '#domain/ids.ts';
import { type PublicForm, publicFormOf } from '#domain/public-form.ts';
import { findFormKey, getForm } from '#store/forms.ts';
import { getTeam } from '#store/teams.ts';

export interface FoundForm {
  view: PublicForm;
  allowedOrigins: FormRecord['allowedOrigins'];
}

/**
 * The public view of the form a key names, as the submit endpoint finds it
 * (key mapping, then the form with its counters and its team, in parallel),
 * or undefined for an unknown key.
 */
export async function publicFormByKey(
  key: string | undefined,
  now: Date,
): Promise<FoundForm | undefined> {
  if (!isFormKey(key)) return undefined;
  const mapping = await findFormKey(key);
  if (!mapping) return undefined;
  const [form, team] = await Promise.all([getForm(mapping.formId), getTeam(mapping.teamId)]);
  if (!form || !team || form.teamId !== mapping.teamId) return undefined;
  return {
    view: publicFormOf(form, team.plan, now, config.minFillTimeMs),
    allowedOrigins: form.allowedOrigins,
  };
}
