import type { Form, FormAnalytics } from '../model.ts';
import { funnelRows } from '../summary-model.ts';

/**
 * How far visitors of a form with pages got (docs/analytics.md#the-funnel):
 * a table, each row with a bar of its share of the views, so a screen
 * reader reads the same numbers a sighted person sees. Only for a form
 * with pages: a one-page form's steps are its views, starts and sends,
 * which the totals show.
 */
export function Funnel(props: { form: Form; summary: FormAnalytics }) {
  const { form, summary } = props;
  if (!form.pages || form.pages.length === 0) return null;
  const rows = funnelRows(summary.funnel, form.pages);
  return (
    <section class="counts funnel" aria-labelledby="funnel-title">
      <h2 id="funnel-title">Funnel</h2>
      <p class="hint">
        How far visitors got through the form’s steps: page loads, not people. Started: answered
        anything. No answer is kept.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Count</th>
            <th scope="col">Share of views</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.step}>
              <th scope="row">{row.step}</th>
              <td class="funnel-count">
                <span class="count-bar" style={{ width: `${row.width * 100}%` }} />
                <span class="count-number">{row.count.toLocaleString()}</span>
              </td>
              <td class="funnel-share">{row.share}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
