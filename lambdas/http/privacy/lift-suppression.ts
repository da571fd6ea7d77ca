import { liftSesSuppression } from '#aws/email-suppressions.ts';
import { config } from '#config';
import { suppressionAddress } from '#domain/email-events.ts';
import { emailHash } from '#domain/email-index.ts';
import { notFound } from '#domain/errors.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { liftSuppression, type StoredSuppression } from '#store/suppressions.ts';

/**
 * `DELETE /v1/team/suppressions/{email}` (owners): the team's forms email the
 * address again (docs/delivery.md#suppressed-addresses). Recorded in the
 * audit trail with the address's keyed hash, as the privacy routes do.
 * 404 when the address is not on the list.
 */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'Lifted: the next email to it is sent.', body: 'Ok' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  requireOwner(caller);
  const email = suppressionAddress(decodedAddress(pathParameters.email ?? ''));
  // Not an address (too long, no @): it cannot be on the list either.
  if (!email.includes('@') || email.length > 320) throw notFound('Suppressed address');
  const teamId = caller.team.teamId;
  const lifted = await liftSuppression(teamId, email);
  if (!lifted) throw notFound('Suppressed address');
  await liftAtSes(lifted, caller.team.sesTenant);
  await auditByCaller(caller, event, 'suppression.lifted', null, {
    emailHash: emailHash(config.keyedHashSecret, teamId, email),
  });
  return json(200, { ok: true });
});

/**
 * SES's own entries for the address, on the team's tenant list (tenants are made
 * with tenant-scoped suppression), go too, by each exact spelling SES gave.
 * Our entry is already lifted: an SES that fails is logged and counted, and the
 * lift still answers 200 (docs/delivery.md#suppressed-addresses says why).
 */
async function liftAtSes(entry: StoredSuppression, tenantName: string | undefined): Promise<void> {
  if (!config.sesTenants || !tenantName) return;
  const spellings = entry.sesAddresses.length > 0 ? entry.sesAddresses : [entry.email];
  // At once: a few spellings at most (MAX_SES_SPELLINGS), each bounded by the client's timeout.
  const failed = (
    await Promise.allSettled(spellings.map((address) => liftSesSuppression(address, tenantName)))
  ).filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed.length > 0) {
    count('SesSuppressionNotLifted', failed.length);
    log.warn('suppression lifted here, not at SES', {
      tenantName,
      failed: failed.length,
      ...errorFields(failed[0]!.reason),
    });
  }
}

/** The path's address, percent-decoded whether or not the gateway decoded it. */
function decodedAddress(raw: string): string {
  try {
    return /%[0-9a-f]{2}/i.test(raw) ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
}
