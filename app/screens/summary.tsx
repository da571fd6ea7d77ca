import { useEffect, useState } from 'preact/hooks';
import { FIRST_DATE, LAST_DATE } from '#domain/summary-dates.ts';
import { ApiError, call } from '../api.ts';
import type { Form, FormAnalytics } from '../model.ts';
import { CountTable, DayBars, DayLine } from '../parts/charts.tsx';
import { Loading, Problem } from '../parts/feedback.tsx';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';

/** The person's own time zone: the days of the summary are theirs. */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const PRESETS: [string, number][] = [
  ['7 days', 7],
  ['30 days', 30],
  ['90 days', 90],
  ['12 months', 365],
];

const today = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const percent = (rate: number | null) =>
  rate === null ? '–' : `${(rate * 100).toLocaleString(undefined, { maximumFractionDigits: 1 })} %`;
const number = (value: number | null) => (value === null ? '–' : value.toLocaleString());

/** A form's analytics over days in the person's time zone: charts, each with its table. */
export function SummaryScreen(props: { formId: string; query: URLSearchParams }) {
  const { formId, query } = props;
  const to = query.get('to') ?? today();
  const from = query.get('from') ?? daysBefore(to, 29);
  const [form, setForm] = useState<Form>();
  const [summary, setSummary] = useState<FormAnalytics>();
  const [error, setError] = useState<unknown>();
  const load = () => {
    setError(undefined);
    setSummary(undefined);
    Promise.all([
      call('getForm', { params: { id: formId } }),
      call('getFormSummary', { params: { id: formId }, query: { from, to, tz: ZONE } }),
    ]).then(([form, summary]) => {
      setForm(form);
      setSummary(summary);
    }, setError);
  };
  useEffect(load, [formId, from, to]);
  const show = (range: { from: string; to: string }) => navigate(paths.summary(formId, range));

  return (
    <main id="main" class="summary">
      <h2>{form ? `${form.name}: summary` : 'Summary'}</h2>
      <RangePicker from={from} to={to} onPick={show} />
      {error ? (
        <Problem error={error} retry={load}>
          {/* A link's own dates may be wrong (`?to=9999-12-31`): say which, the picker is above. */}
          {error instanceof ApiError && error.issues.length > 0 && (
            <ul>
              {error.issues.map((issue) => (
                <li key={issue.path}>
                  {issue.path}: {issue.message}
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

function RangePicker(props: {
  from: string;
  to: string;
  onPick: (range: { from: string; to: string }) => void;
}) {
  const [from, setFrom] = useState(props.from);
  const [to, setTo] = useState(props.to);
  useEffect(() => {
    setFrom(props.from);
    setTo(props.to);
  }, [props.from, props.to]);
  return (
    <form
      class="range"
      aria-label="Days"
      onSubmit={(event) => {
        event.preventDefault();
        props.onPick({ from, to });
      }}
    >
      <label>
        From{' '}
        <input
          type="date"
          value={from}
          min={FIRST_DATE}
          max={to}
          required
          onInput={(e) => setFrom(e.currentTarget.value)}
        />
      </label>
      <label>
        To{' '}
        <input
          type="date"
          value={to}
          min={from}
          max={LAST_DATE}
          required
          onInput={(e) => setTo(e.currentTarget.value)}
        />
      </label>
      <button type="submit">Show</button>
      <span class="presets">
        {PRESETS.map(([label, days]) => (
          <button
            key={label}
            type="button"
            class="quiet"
            onClick={() => props.onPick({ from: daysBefore(today(), days - 1), to: today() })}
          >
            Last {label}
          </button>
        ))}
      </span>
      <p class="hint">Days in {ZONE}, your time zone.</p>
    </form>
  );
}

function Report(props: { form: Form; summary: FormAnalytics }) {
  const { form, summary } = props;
  const { totals } = summary;
  const dates = summary.days.map((d) => d.date);
  const dropped = Object.entries(summary.dropped).filter(([, n]) => n > 0);
  return (
    <>
      <dl class="totals" aria-label="Totals">
        {(
          [
            // Submissions and tests apart, as every screen counts them (docs/dashboard.md#counts).
            ['Views', number(totals.views)],
            ['Submissions', number(totals.stored)],
            ['Tests', number(totals.tests)],
            ['Conversion', percent(totals.conversionRate)],
            ['Spam', number(totals.spam)],
            ['Dropped', number(totals.dropped)],
          ] as const
        ).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div class="charts">
        <DayBars
          title="Submissions each day"
          dates={dates}
          series={[
            { name: 'Submissions', values: summary.days.map((d) => d.stored), tone: 'series-a' },
            { name: 'Spam', values: summary.days.map((d) => d.spam), tone: 'series-b' },
          ]}
        />
        <DayBars
          title="Views each day"
          dates={dates}
          series={[{ name: 'Views', values: summary.days.map((d) => d.views), tone: 'series-c' }]}
        />
      </div>
      <TypeBlock form={form} summary={summary} dates={dates} />
      <section>
        <h2>Visitors</h2>
        <div class="breakdowns">
          <CountTable
            title="Devices"
            what="Device"
            rows={Object.entries(summary.devices).filter(([, n]) => n > 0)}
          />
          <CountTable
            title="Countries"
            what="Country"
            rows={summary.countries.map((c) => [c.code, c.count])}
          />
          <CountTable
            title="Referrers"
            what="Site"
            rows={summary.referrers.map((r) => [r.host, r.count])}
          />
          <CountTable title="Dropped posts" what="Reason" rows={dropped} empty="None dropped." />
        </div>
      </section>
      <Fields form={form} summary={summary} />
      <p class="hint">
        Counted at {new Date(summary.asOf).toLocaleString()}. Views are page loads of the hosted
        page and the embed (robots left out); deleting submissions does not lower past days.
      </p>
    </>
  );
}

function TypeBlock(props: { form: Form; summary: FormAnalytics; dates: string[] }) {
  const { summary, dates } = props;
  const block = summary.byType as Record<string, unknown>;
  switch (summary.type) {
    case 'contact': {
      const { unread, medianMinutesToFirstRead } = block as {
        unread: number;
        medianMinutesToFirstRead: number | null;
      };
      return (
        <Facts
          title="Replies"
          facts={[
            ['Unread', number(unread)],
            ['Median time to first read', minutes(medianMinutesToFirstRead)],
          ]}
        />
      );
    }
    case 'waitlist': {
      const { signups, uniqueEmails, cumulative } = block as {
        signups: number;
        uniqueEmails: number;
        cumulative: { date: string; total: number }[];
      };
      return (
        <>
          <Facts
            title="Signups"
            facts={[
              ['Signups', number(signups)],
              ['New addresses', number(uniqueEmails)],
            ]}
          />
          <DayLine
            title="Signups since the start"
            dates={dates}
            series={{ name: 'Total', values: cumulative.map((c) => c.total), tone: 'series-a' }}
          />
        </>
      );
    }
    case 'feedback': {
      const { ratingField, average, distribution, trend, nps } = block as {
        ratingField: string | null;
        average: number | null;
        distribution: Record<string, number>;
        trend: { date: string; average: number | null }[];
        nps: { promoters: number; passives: number; detractors: number; score: number } | null;
      };
      if (!ratingField) return <p class="hint">This form has no rating field.</p>;
      const scale = summary.fields[ratingField];
      const top = scale?.kind === 'rating' ? scale.max : Object.keys(distribution).length;
      return (
        <>
          <Facts
            title="Ratings"
            facts={[
              ['Average', number(average)],
              ...(nps
                ? ([
                    ['NPS', number(nps.score)],
                    ['Promoters', number(nps.promoters)],
                    ['Passives', number(nps.passives)],
                    ['Detractors', number(nps.detractors)],
                  ] as [string, string][])
                : []),
            ]}
          />
          <DayLine
            title="Average rating each day"
            dates={dates}
            max={top}
            series={{ name: 'Average', values: trend.map((t) => t.average), tone: 'series-a' }}
          />
        </>
      );
    }
    case 'rsvp': {
      const { yes, no, maybe, guests } = block as Record<'yes' | 'no' | 'maybe' | 'guests', number>;
      return (
        <Facts
          title="Answers"
          facts={[
            ['Yes', number(yes)],
            ['No', number(no)],
            ['Maybe', number(maybe)],
            ['Guests of the yeses', number(guests)],
          ]}
        />
      );
    }
    default:
      return null;
  }
}

function minutes(value: number | null) {
  if (value === null) return '–';
  if (value < 60) return `${value} min`;
  if (value < 48 * 60) return `${(value / 60).toFixed(1)} h`;
  return `${(value / 1440).toFixed(1)} days`;
}

function Facts(props: { title: string; facts: [string, string][]; level?: 2 | 3 }) {
  const Heading = props.level === 3 ? 'h3' : 'h2';
  return (
    <section class="facts">
      <Heading>{props.title}</Heading>
      <dl class="totals">
        {props.facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Fields(props: { form: Form; summary: FormAnalytics }) {
  const fields = props.form.fields ?? [];
  if (fields.length === 0) return null;
  return (
    <section class="fields">
      <h2>Answers by field</h2>
      <div class="breakdowns">
        {fields.map((field) => {
          const summary = props.summary.fields[field.id];
          if (!summary) return null;
          const title = `${field.label ?? field.id} (${summary.answered.toLocaleString()} answered)`;
          switch (summary.kind) {
            case 'choice':
              return (
                <CountTable
                  key={field.id}
                  title={title}
                  what="Answer"
                  rows={Object.entries(summary.counts)}
                />
              );
            case 'rating':
              return (
                <CountTable
                  key={field.id}
                  title={`${title}, average ${number(summary.average)}`}
                  // A 0–10 question is a score, not stars (docs/analytics.md#summary).
                  what={summary.min === 0 ? 'Score' : 'Stars'}
                  rows={Object.entries(summary.counts)}
                />
              );
            case 'checkbox':
              return (
                <Facts
                  key={field.id}
                  level={3}
                  title={title}
                  facts={[['Ticked', number(summary.checked)]]}
                />
              );
            case 'number':
              return (
                <Facts
                  key={field.id}
                  level={3}
                  title={title}
                  facts={[
                    ['Smallest', number(summary.min)],
                    ['Average', number(summary.average)],
                    ['Largest', number(summary.max)],
                  ]}
                />
              );
            default:
              return (
                <Facts
                  key={field.id}
                  level={3}
                  title={field.label ?? field.id}
                  facts={[['Answered', number(summary.answered)]]}
                />
              );
          }
        })}
      </div>
    </section>
  );
}
