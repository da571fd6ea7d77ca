import { suppressionListQuery } from '#domain/suppression-list-query.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { listSuppressions } from '#store/suppressions.ts';

/**
 * `GET /v1/team/suppressions?limit=&cursor=` (owners; docs/delivery.md#suppressed-addresses):
 * a page of the addresses the team's forms no longer email, by mailbox. Only the
 * caller's team's list: another team's is never read.
 */
export const contract = defineContract({
  tag: 'Team',
  query: suppressionListQuery,
  answers: [
    {
      status: 200,
      description: 'The suppressed addresses by mailbox; `next` continues, `null` at the end.',
      body: 'SuppressionList',
    },
  ],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, input }) => {
  requireOwner(caller);
  const { limit, cursor } = input.query();
  const page = await listSuppressions(caller.team.teamId, { limit, after: cursor });
  return json(200, {
    suppressions: page.suppressions.map((entry) => ({
      email: entry.email,
      reason: entry.reason,
      bounceType: entry.bounceType ?? null,
      at: entry.at,
      formId: entry.formId,
      submissionId: entry.submissionId,
    })),
    next: page.next,
  });
});
