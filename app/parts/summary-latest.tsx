import { call } from '../api.ts';
import { useQuery } from '../data.ts';
import type { Form } from '../model.ts';
import { paths } from '../paths.ts';
import { latestTextAnswers } from '../summary-model.ts';
import { When } from '../time.tsx';
import { Problem } from './feedback.tsx';
import { Link } from './link.tsx';

/** Submissions read for their text answers: the newest ones, one small page. */
const SUBMISSIONS_READ = 20;
/** Quotes shown at most. */
const QUOTES = 8;

/**
 * The latest text answers as quotes, each linking to its submission. The
 * summary counts answers but keeps no text (docs/analytics.md#summary), so
 * these come from the newest submissions outside spam, whatever the days
 * chosen above (docs/dashboard.md#screens).
 */
export function LatestAnswers(props: { form: Form }) {
  const { form } = props;
  const query = useQuery(form.id, (signal) =>
    call('listSubmissions', {
      params: { id: form.id },
      query: { filter: 'all', pageSize: SUBMISSIONS_READ },
      signal,
    }),
  );
  const answers =
    query.data && latestTextAnswers(form.fields ?? undefined, query.data.items, QUOTES);
  return (
    <section class="latest-answers" aria-labelledby="latest-answers-title">
      <h2 id="latest-answers-title">Latest text answers</h2>
      {query.error ? (
        <Problem error={query.error} retry={query.reload} />
      ) : !answers ? (
        <p class="hint">Reading the newest submissions…</p>
      ) : answers.length === 0 ? (
        <p class="hint">No text answers yet.</p>
      ) : (
        <>
          <p class="hint">From the newest submissions, whatever the days above; spam left out.</p>
          <ul class="quotes">
            {answers.map((answer, n) => (
              <li key={`${answer.submissionId}-${n}`}>
                <figure>
                  <blockquote>
                    <p>{answer.quote}</p>
                  </blockquote>
                  <figcaption>
                    {answer.field},{' '}
                    <Link to={paths.submission(form.id, answer.submissionId)}>
                      received <When at={answer.receivedAt} />
                    </Link>
                    {answer.cut && ' (shortened: the submission has all of it)'}
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
