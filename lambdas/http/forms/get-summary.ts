import { notFound } from '#domain/errors.ts';
import { isUuid } from '#domain/ids.ts';
import {
  hoursToRead,
  type SummaryRange,
  summaryQuery,
  summaryRange,
} from '#domain/summary-range.ts';
import { summaryReport } from '#domain/summary-report.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { readHours, readSignupDays } from '#store/summary-buckets.ts';

export const contract = defineContract({
  tag: 'Forms',
  description:
    'Counts of a range of calendar days in a time zone, from hour rollups the table stream keeps (docs/analytics.md#summary): a year costs one round of parallel Queries, never a scan of submissions.',
  query: summaryQuery,
  answers: [{ status: 200, description: 'The summary of the range.', body: 'Summary' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, input }) => {
  const now = new Date();
  const formId = pathParameters.id;
  if (!isUuid(formId)) throw notFound('Form');
  // A bad query is answered only once the form is found: another team's form is 404 whatever
  // the query (docs/api-basics.md#authentication). A good one reads the form and its rollups
  // at once.
  let range: SummaryRange;
  try {
    range = summaryRange(input.query(), now);
  } catch (problem) {
    await getTeamForm(caller.team.teamId, formId);
    throw problem;
  }
  const { first, last } = hoursToRead(range);
  // The form and its rollups at once (one round trip, not two): the rollups of a form that
  // turns out not to be the caller's are never shown. The months hold a waitlist's signups
  // a day; the running total of signups starts with those of the UTC days before the range.
  const [form, buckets, signupDays] = await Promise.all([
    getTeamForm(caller.team.teamId, formId),
    readHours(formId, first, last),
    readSignupDays(formId, first.slice(0, 6)),
  ]);
  // The hours read start at a UTC midnight: the days before it come from the month items.
  const firstDay = first.slice(0, 8);
  const signupDaysBefore =
    form.type === 'waitlist'
      ? Object.entries(signupDays)
          .filter(([day]) => day < firstDay)
          .reduce((n, [, count]) => n + count, 0)
      : 0;
  return json(200, summaryReport({ form, range, buckets, signupDaysBefore, now }));
});
