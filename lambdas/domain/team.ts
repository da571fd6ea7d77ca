import type { IpStorage } from './visitor-ip.ts';

/** A team: the unit that owns forms, members, API keys and a plan. */

export type Plan = 'free' | 'pro';

export interface Team {
  teamId: string;
  name: string;
  ownerEmail: string;
  ownerUserId: string;
  plan: Plan;
  /** Forms the team holds now; the Free limit is enforced on it atomically. */
  formCount: number;
  /** Overrides the plan's monthly submission allowance when set (admin CLI). */
  monthlyAllowance?: number;
  createdAt: string;
  /** When the owner became a member (store/members.ts); absent on teams made before members. */
  membersSince?: string;
  /** Owners among the members: never below 1 once `membersSince` is set. */
  ownerCount?: number;
  /** What its submissions keep of a visitor's address; absent is `address` (docs/people.md#visitor-addresses). */
  ipStorage?: IpStorage;
  /**
   * The SES tenant the team sends as, once made ready (its name:
   * tenantNameOf); absent until its first email (docs/delivery.md#one-team-cannot-pause-everyones-mail).
   */
  sesTenant?: string;
  /** When SES last refused its mail because its tenant was paused; cleared by its next sent email. */
  emailPausedAt?: string;
}
