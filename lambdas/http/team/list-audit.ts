import { auditQuery } from '#domain/audit-query.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listAudit } from '#store/audit.ts';
import { requireOwner } from './require-owner.ts';

/** `GET /v1/team/audit?cursor=&limit=` (owners): the audit trail, newest first. */
export const contract = defineContract({
  tag: 'Team',
  query: auditQuery,
  answers: [
    {
      status: 200,
      description: 'Events newest first; `next` continues, `null` at the end.',
      body: 'AuditPage',
    },
  ],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, input }) => {
  requireOwner(caller);
  const { limit, cursor } = input.query();
  const page = await listAudit(caller.team.teamId, { limit, after: cursor });
  return json(200, page);
});
