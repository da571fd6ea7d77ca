import { ApiError } from './api.ts';
import { failureWords } from './data.ts';
import type { TeamView } from './model.ts';

/** A 402 in words: the Free plan's form limit, and what to do about it. */
export function limitOrMessage(failure: unknown, team: TeamView | undefined): string {
  if (failure instanceof ApiError && failure.code === 'form_limit_reached') {
    const limit = team?.formLimit ?? 3;
    return `The Free plan allows ${limit} forms. Delete a form you no longer use, or move the team to Pro for unlimited forms.`;
  }
  return failureWords(failure);
}
