/**
 * SES tenants (docs/delivery.md#one-team-cannot-pause-everyones-mail): each
 * team sends as a tenant of its own, so SES measures its bounces and
 * complaints apart and pauses only it, never the whole account.
 */

/** Every team's tenant name starts so: the IAM grants name the teams' tenants by it. */
export const TEAM_TENANT_PREFIX = 'team-';

/** SES tenant names: up to 64 of letters, digits, `-` and `_`. */
export function tenantNameOf(teamId: string): string {
  return `${TEAM_TENANT_PREFIX}${teamId.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/**
 * SES's managed reputation policy for every team's tenant: `standard` pauses
 * a tenant whose bounce or complaint rate reaches SES's thresholds, before the
 * account's own review; `strict` pauses sooner, `none` never.
 */
export const TENANT_REPUTATION_POLICY = 'standard';

export const reputationPolicyArn = (partition: string, region: string) =>
  `arn:${partition}:ses:${region}:aws:reputation-policy/${TENANT_REPUTATION_POLICY}`;

/**
 * Whether SES's `Tenant.SendingStatus` (GetTenant) says the tenant itself is
 * paused: `DISABLED`. `ENABLED` and `REINSTATED` (sending again after a
 * pause) send; so a `SendingPausedException` for a tenant whose status is
 * not `DISABLED` came from a pause of the account or the configuration set.
 */
export const tenantIsPaused = (sendingStatus: string | undefined): boolean =>
  sendingStatus === 'DISABLED';
