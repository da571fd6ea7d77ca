import { auditQuery } from '#domain/audit-query.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { json } from '#http/respond.ts';
import { listAudit } from '#store/audit.ts';
import { requireOwner } from './require-owner.ts';

/** `GET /v1/team/audit?cursor=&limit=` (owners): the audit trail, newest first. */
export const handler = managementRoute(async ({ caller, query }) => {
  requireOwner(caller);
  const { limit, cursor } = parse(auditQuery, query, 'query string');
  const page = await listAudit(caller.team.teamId, { limit, after: cursor });
  return json(200, page);
});
