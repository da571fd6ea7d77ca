import { config } from '#config';
import { keptFrom } from '#domain/retention.ts';
import { testCountOf } from '#domain/submission-folders.ts';
import { listQuery, toListItem } from '#domain/submission-list.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { readSpamByReason, readSubmissionList } from '#store/folder-reads.ts';
import { getTeamFormWithFolders } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Submissions',
  query: listQuery,
  answers: [
    { status: 200, description: 'One page of the folder, newest first.', body: 'SubmissionPage' },
  ],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, input }) => {
  const asOf = new Date().toISOString();
  const { form, folders } = await getTeamFormWithFolders(caller.team.teamId, pathParameters.id);
  const request = input.query();
  const from = keptFrom(form.retentionDays, new Date(asOf), config.retentionDaySeconds);
  // The spam folder narrowed to one reason is walked whole; a folder is read by its index.
  const narrowed = request.reason
    ? await readSpamByReason(form.id, request.reason, request, from)
    : undefined;
  const list = narrowed ?? (await readSubmissionList(form.id, folders, request, from));
  return json(200, {
    items: list.items.map(toListItem),
    page: list.page,
    pageSize: request.pageSize,
    pageCount: list.pageCount,
    total: list.total,
    unreadCount: folders.unread,
    // The form's submissions and, apart, its tests outside spam: all = the two together.
    submissionCount: form.submissionCount,
    testCount: testCountOf(folders, form.submissionCount),
    // Every folder's size (all excludes spam): the dashboard's folder tabs, from the same read.
    folderCounts: folders,
    // With a reason: how many of the spam folder hold each (those walked to find the page).
    ...(narrowed ? { reasonCounts: narrowed.reasonCounts } : {}),
    asOf,
  });
});
