import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { FormRecord } from '#domain/form-model.ts';
import { documents } from './client.ts';
import { formKey, stripPlumbing, teamKey, usageKey } from './keys.ts';
import type { Team } from './teams.ts';

export interface SubmitContext {
  form: FormRecord;
  team: Team;
  /** Submissions counted for the team this month before this post. */
  usedThisMonth: number;
}

const MAX_ATTEMPTS = 5;

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
  let keys: Record<string, unknown>[] = [formKey(formId), teamKey(teamId), usageKey(teamId, month)];
  const items: Record<string, unknown>[] = [];
  for (let attempt = 1; keys.length > 0; attempt++) {
    if (attempt > MAX_ATTEMPTS) throw new Error('DynamoDB kept returning unprocessed keys');
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    const result = await documents.send(
      new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: keys } } }),
    );
    items.push(...(result.Responses?.[config.tableName] ?? []));
    keys = result.UnprocessedKeys?.[config.tableName]?.Keys ?? [];
  }
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
