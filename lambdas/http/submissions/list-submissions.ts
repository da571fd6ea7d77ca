import { listQuery, toListItem } from '#domain/submission-list.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { json } from '#http/respond.ts';
import { readSubmissionList } from '#store/folder-reads.ts';
import { getTeamFormWithFolders } from '#store/forms.ts';

export const handler = managementRoute(async ({ caller, pathParameters, query }) => {
  const asOf = new Date().toISOString();
  const { form, folders } = await getTeamFormWithFolders(caller.team.teamId, pathParameters.id);
  const request = parse(listQuery, query, 'query string');
  const list = await readSubmissionList(form.id, folders, request);
  return json(200, {
    items: list.items.map(toListItem),
    page: list.page,
    pageSize: request.pageSize,
    pageCount: list.pageCount,
    total: list.total,
    unreadCount: folders.unread,
    // Every folder's size (all excludes spam): the dashboard's folder tabs, from the same read.
    folderCounts: folders,
    asOf,
  });
});
