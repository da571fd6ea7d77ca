import type { AnswerCatalogue } from '#domain/answer-columns.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { FormCounters } from './form-counters.ts';
import { readForm } from './forms.ts';
import { stripPlumbing, teamKey } from './keys.ts';
import { getItem } from './table.ts';
import type { Team } from './teams.ts';
import { readUsage, type UsageCounts } from './usage.ts';

export interface SubmitContext {
  form: FormRecord;
  /** The form's counter shards: where this post likely finds room. */
  counters: FormCounters;
  /** The form's column catalogue, read with the form: a post adds only names it lacks. */
  columns: AnswerCatalogue | undefined;
  team: Team;
  /** The team's usage shards this month, before this post. */
  usage: UsageCounts;
}

/**
 * Everything the submit path reads after the key lookup, in one round trip
 * of three parallel reads: the form with its counter shards and column
 * catalogue (one Query), its team, and the month's usage shards (one
 * Query). Undefined when the form or team is gone (deleted between the key
 * lookup and this read).
 */
export async function readSubmitContext(
  formId: string,
  teamId: string,
  month: string,
): Promise<SubmitContext | undefined> {
  const [stored, team, usage] = await Promise.all([
    readForm(formId),
    getItem(teamKey(teamId)),
    readUsage(teamId, month),
  ]);
  if (!stored || !team || stored.form.teamId !== teamId) return undefined;
  return {
    form: stored.form,
    counters: stored.counters,
    columns: stored.columns,
    team: stripPlumbing<Team>(team),
    usage,
  };
}
