import { ApiError, call } from '../api.ts';
import { useQuery } from '../data.ts';
import { readForm } from '../form-read.ts';
import { Loading, Problem } from '../parts/feedback.tsx';
import { RangePicker, today, ZONE } from '../parts/summary-range.tsx';
import { Report } from '../parts/summary-report.tsx';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';
import { daysBefore } from '../summary-model.ts';

/** The summary's query as the picker names it, for a link whose own dates are refused. */
const QUERY_WORDS: Record<string, string> = { from: 'From', to: 'To', tz: 'Time zone' };

/** A form's analytics over days in the person's time zone: charts, each with its table. */
export function SummaryScreen(props: { formId: string; query: URLSearchParams }) {
  const { formId, query } = props;
  const to = query.get('to') ?? today();
  const from = query.get('from') ?? daysBefore(to, 29);
  const read = useQuery(`${formId} ${from} ${to}`, (signal) =>
    Promise.all([
      readForm(formId, signal),
      call('getFormSummary', { params: { id: formId }, query: { from, to, tz: ZONE }, signal }),
    ]),
  );
  const { error } = read;
  // The range changed: the older range's numbers are not shown under the new dates.
  const [form, summary] = read.loading ? [] : (read.data ?? []);
  const show = (range: { from: string; to: string }) => navigate(paths.summary(formId, range));

  return (
    <main id="main" class="summary">
      <h2>{read.data ? `${read.data[0].name}: summary` : 'Summary'}</h2>
      <RangePicker from={from} to={to} onPick={show} />
      {error ? (
        <Problem error={error} retry={read.reload}>
          {/* A link's own dates may be wrong (`?to=9999-12-31`): say which, the picker is above. */}
          {error instanceof ApiError && error.issues.length > 0 && (
            <ul>
              {error.issues.map((issue) => (
                <li key={issue.path}>
                  {QUERY_WORDS[issue.path] ?? 'The link'}: {issue.message}
                </li>
              ))}
            </ul>
          )}
        </Problem>
      ) : !form || !summary ? (
        <Loading label="Counting…" />
      ) : (
        <Report form={form} summary={summary} />
      )}
    </main>
  );
}
