import type { FormRecord } from '#domain/form-model.ts';
import { formKey, stripPlumbing, teamKey, usageKey } from './keys.ts';
import { batchGetAll } from './retries.ts';
import type { Team } from './teams.ts';

export interface SubmitContext {
  form: FormRecord;
  team: Team;
  /** Submissions counted for the team this month before this post. */
  usedThisMonth: number;
}

/**
 * Everything the submit path reads after the key lookup, in one BatchGet:
 * the form, its team and the month's usage. Undefined when the form or team
 * is gone (deleted between the key lookup and this read).
 */
export async function readSubmitContext(
  formId: string,
  teamId: string,
  month: string,
): Promise<SubmitContext | undefined> {
  const items = await batchGetAll([formKey(formId), teamKey(teamId), usageKey(teamId, month)]);
  const bySk = new Map(items.map((item) => [item.sk as string, item]));
  const form = bySk.get('FORM');
  const team = bySk.get('TEAM');
  if (!form || !team || form.teamId !== teamId) return undefined;
  return {
    form: stripPlumbing<FormRecord>(form),
    team: stripPlumbing<Team>(team),
    usedThisMonth: Number(bySk.get(usageKey(teamId, month).sk)?.submissions ?? 0),
  };
}
