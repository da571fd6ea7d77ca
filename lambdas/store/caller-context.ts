import type { Member } from '#domain/members.ts';
import type { Team } from '#domain/team.ts';
import { batchGetAll } from './batches.ts';
import { memberKey, stripPlumbing, teamKey } from './keys.ts';

type Key = Parameters<typeof batchGetAll>[0][number];

/**
 * What a caller acts with, read in one consistent BatchGet: the team and
 * the member as they stand now (either may be gone), with any `also` items
 * (a session), found among the answers by their entity name.
 */
export async function readCallerContext(
  teamId: string,
  userId: string,
  also: Key[] = [],
): Promise<{ team?: Team; member?: Member; entity: <T>(name: string) => T | undefined }> {
  const items = await batchGetAll([teamKey(teamId), memberKey(teamId, userId), ...also], {
    consistent: true,
  });
  const entity = <T>(name: string) => {
    const item = items.find((each) => each.entity === name);
    return item ? stripPlumbing<T>(item) : undefined;
  };
  return { team: entity<Team>('team'), member: entity<Member>('member'), entity };
}
