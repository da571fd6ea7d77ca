import type { Member } from '#domain/members.ts';
import type { Team } from '#domain/team.ts';
import { readCallerContext } from './caller-context.ts';
import { apiKeyKey, stripPlumbing } from './keys.ts';
import { getItem } from './table.ts';

/**
 * An API key is two items: the key's own (`APIKEY#<keyId>`: its hash and
 * team, read by every request it makes) and its listing in the team's
 * partition (`TEAM#<teamId>` / `APIKEY#<keyId>`: what `GET /v1/team/api-keys`
 * shows). A key made before listings existed gets its listing on its first
 * request (`listed` on the key's item says it happened), at the same time as
 * the day's `lastUsedOn`, the only write a request makes, once a day.
 */

export interface ApiKeyRecord {
  keyId: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  hash: string;
  teamId: string;
  /**
   * The member who created it; the key acts with their current membership
   * (docs/people.md#teams-members-keys-and-the-audit-trail). For an
   * operator's key (`operator`), the team's original owner.
   */
  userId: string;
  /**
   * Made by the admin CLI (or by another operator's key): it acts as an
   * owner of its team whoever its members are, as the operator who made it
   * could anyway.
   */
  operator?: boolean;
  name: string;
  createdAt: string;
  /** Absent while the key works. */
  revokedAt?: string;
  /** The last day (UTC, YYYY-MM-DD) a request used it. */
  lastUsedOn?: string;
  /** Whether its listing exists. */
  listed?: boolean;
  /** Who created it, as shown in the listing. */
  createdByEmail?: string | null;
}

/** What the team's key list holds of a key: never its hash. */
export interface ApiKeyListing {
  keyId: string;
  name: string;
  userId: string;
  createdByEmail: string | null;
  createdAt: string;
  lastUsedOn: string | null;
  revokedAt: string | null;
}

export async function getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  // Consistent: a key revoked a moment ago must not work.
  const item = await getItem(apiKeyKey(keyId), { consistent: true });
  return item ? stripPlumbing<ApiKeyRecord>(item) : undefined;
}

/**
 * What a key's request acts with: its team and its creator's membership as
 * they stand now (either may be gone).
 */
export async function readKeyContext(
  teamId: string,
  userId: string,
): Promise<{ team?: Team; member?: Member }> {
  const { team, member } = await readCallerContext(teamId, userId);
  return { team, member };
}
