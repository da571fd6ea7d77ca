import { countryName } from '../answers.ts';
import type { Form, FormAnalytics } from '../model.ts';
import { conversionWords, deviceRows, droppedRows, number } from '../summary-model.ts';
import { CountTable, DayBars } from './charts.tsx';
import { FactList } from './summary-facts.tsx';
import { Fields } from './summary-fields.tsx';
import { Funnel } from './summary-funnel.tsx';
import { LatestAnswers } from './summary-latest.tsx';
import { TypeBlock } from './summary-type-block.tsx';

/** The summary of a range: totals, the days as charts, the type's block, visitors, fields, quotes. */
export function Report(props: { form: Form; summary: FormAnalytics }) {
  const { form, summary } = props;
  const { totals } = summary;
  const dates = summary.days.map((d) => d.date);
  const conversion = conversionWords(totals);
  // Confirm by email's lost answers: on a form that asks for it, or that did in the range.
  const confirming = Boolean(form.confirmEmail) || summary.notConfirmed > 0;
  return (
    <>
      <FactList
        label="Totals"
        facts={[
          // Submissions and tests apart, as every screen counts them (docs/dashboard.md#counts).
          ['Views', number(totals.views)],
          ['Submissions', number(totals.stored)],
          ['Tests', number(totals.tests)],
          ['Conversion', conversion.value],
          ['Spam', number(totals.spam)],
          ['Dropped', number(totals.dropped)],
          ...(confirming
            ? ([['Not confirmed', number(summary.notConfirmed)]] as [string, string][])
            : []),
        ]}
      />
      {conversion.note && <p class="hint conversion-note">{conversion.note}</p>}
      {confirming && (
        <p class="hint not-confirmed-note">
          Not confirmed: answers whose visitors did not press the link emailed to confirm their
          address before it expired, since deleted; they are counted nowhere else.
        </p>
      )}
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
      <Funnel form={form} summary={summary} />
      <TypeBlock summary={summary} dates={dates} />
      <Visitors summary={summary} />
      <Fields form={form} summary={summary} />
      <LatestAnswers form={form} />
      <p class="hint">
        Counted at {new Date(summary.asOf).toLocaleString()}. Views are page loads of the hosted
        page, the embed and the HTML form from Share (robots left out); deleting submissions does
        not lower past days.
      </p>
    </>
  );
}

function Visitors(props: { summary: FormAnalytics }) {
  const { summary } = props;
  return (
    <section>
      <h2>Visitors</h2>
      <div class="breakdowns">
        <CountTable title="Devices" what="Device" rows={deviceRows(summary.devices)} />
        <CountTable
          title="Countries"
          what="Country"
          rows={summary.countries.map((c) => [countryName(c.code) ?? c.code, c.count])}
        />
        <CountTable
          title="Referrers"
          what="Site"
          rows={summary.referrers.map((r) => [r.host, r.count])}
        />
        <CountTable
          title="Dropped posts"
          what="Why it was not kept"
          rows={droppedRows(summary.dropped)}
          empty="None dropped."
        />
      </div>
    </section>
  );
}
