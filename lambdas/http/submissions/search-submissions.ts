import { config } from '#config';
import { isKept, keptFrom } from '#domain/retention.ts';
import { searchQuery } from '#domain/search-query.ts';
import { toListItem } from '#domain/submission-list.ts';
import { matches, words } from '#domain/submission-search.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { readSubmissionsNewestFirst } from '#store/folder-reads.ts';
import { getTeamFormWithFolders } from '#store/forms.ts';

/**
 * `GET /v1/forms/{id}/submissions/search?q=&folder=&cursor=`: the matches
 * among the next slice of the form's submissions (newest first), `next` to
 * go on from (null at the end), `searched` how many this call looked at and
 * `total` how many the form holds, spam included.
 */
export const contract = defineContract({
  tag: 'Submissions',
  query: searchQuery,
  answers: [
    {
      status: 200,
      description: 'The matches among the next submissions read, newest first.',
      body: 'SearchPage',
    },
  ],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, input }) => {
  const { form, folders } = await getTeamFormWithFolders(caller.team.teamId, pathParameters.id);
  const request = input.query();
  const wanted = words(request.q);
  const from = keptFrom(form.retentionDays, new Date(), config.retentionDaySeconds);
  const slice = await readSubmissionsNewestFirst(form.id, { after: request.cursor });
  return json(200, {
    items: slice.submissions
      .filter(
        (submission) => isKept(submission, from) && matches(submission, request.folder, wanted),
      )
      .map(toListItem),
    next: slice.next,
    searched: slice.submissions.length,
    total: folders.all + folders.spam,
  });
});
