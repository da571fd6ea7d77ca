import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { listSuppressions } from '#store/suppressions.ts';

/**
 * `GET /v1/team/suppressions` (owners; docs/delivery.md#suppressed-addresses):
 * the addresses the team's forms no longer email, newest first. Only the
 * caller's team's list: another team's is never read.
 */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'The suppressed addresses.', body: 'SuppressionList' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  requireOwner(caller);
  const suppressions = await listSuppressions(caller.team.teamId);
  suppressions.sort((a, b) => b.at.localeCompare(a.at));
  return json(200, {
    suppressions: suppressions.map((entry) => ({
      email: entry.email,
      reason: entry.reason,
      bounceType: entry.bounceType ?? null,
      at: entry.at,
      formId: entry.formId,
      submissionId: entry.submissionId,
    })),
  });
});
