import { usageKey } from './keys.ts';
import { getItem } from './table.ts';

/** Submissions counted for the team in `month` (`yyyy-mm`, UTC); deleted ones stay counted. */
export async function monthlyUsage(teamId: string, month: string): Promise<number> {
  const item = await getItem(usageKey(teamId, month));
  return Number(item?.submissions ?? 0);
}
