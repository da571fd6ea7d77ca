/**
 * The summary's charts, drawn as SVG by hand (a charting library would cost
 * more than the whole app for three kinds of chart). Each chart is an image
 * with a text name, and the same numbers are in a table beside it: a
 * screen reader reads the table, a sighted person the picture.
 */

import type { ComponentChildren } from 'preact';
import { linePlot } from '../summary-model.ts';

export interface Series {
  name: string;
  /** One value per label; null draws nothing (a day without a rating). */
  values: (number | null)[];
  /** A CSS class giving the series its colour (`.series-a` …). */
  tone: string;
}

const HEIGHT = 160;
const GAP = 0.2;

const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Grouped bars a day, with a legend; the days' table under a disclosure. */
export function DayBars(props: { title: string; dates: string[]; series: Series[] }) {
  const { dates, series } = props;
  const max = Math.max(1, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
  const slot = 100 / Math.max(1, dates.length);
  const bar = (slot * (1 - GAP)) / series.length;
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <Legend series={series} />
      <Picture title={props.title} kind="bar chart">
        {dates.map((date, d) =>
          series.map((s, i) => {
            const value = s.values[d] ?? 0;
            if (value === 0) return null;
            const height = (value / max) * (HEIGHT - 4);
            return (
              <rect
                key={`${date}${s.name}`}
                class={s.tone}
                x={d * slot + (slot * GAP) / 2 + i * bar}
                y={HEIGHT - height}
                width={bar}
                height={height}
              />
            );
          }),
        )}
      </Picture>
      <Ticks dates={dates} max={max} />
      <DayTable title={props.title} dates={dates} series={series} />
    </figure>
  );
}

/**
 * A line a day (a running total, an average). A day alone (a range of one
 * day, or a day between days without a value) is a dot: a line through one
 * point has no length. The dots are HTML over the picture, so they stay
 * round however the picture is stretched.
 */
export function DayLine(props: { title: string; dates: string[]; series: Series; max?: number }) {
  const { dates, series } = props;
  const max = props.max ?? Math.max(1, ...series.values.map((v) => v ?? 0));
  const plot = linePlot(series.values, max);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div class="plot">
        <Picture title={props.title} kind="line chart">
          {plot.lines.map((line) => (
            <polyline
              key={`${line[0]!.x}`}
              class={`line ${series.tone}`}
              points={line.map((p) => `${p.x},${(p.y * HEIGHT) / 100}`).join(' ')}
            />
          ))}
        </Picture>
        {plot.dots.map((dot) => (
          <span
            key={`${dot.x}`}
            class={`dot ${series.tone}`}
            aria-hidden="true"
            style={{ left: `${dot.x}%`, top: `${dot.y}%` }}
          />
        ))}
      </div>
      <Ticks dates={dates} max={max} />
      <DayTable title={props.title} dates={dates} series={[series]} />
    </figure>
  );
}

/** A chart's picture, stretched to its box: an image named by its title, an axis at the bottom. */
function Picture(props: { title: string; kind: string; children: ComponentChildren }) {
  return (
    <svg
      viewBox={`0 0 100 ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`${props.title}: ${props.kind}, the table below has the numbers`}
    >
      <line class="axis" x1="0" x2="100" y1={HEIGHT} y2={HEIGHT} />
      {props.children}
    </svg>
  );
}

/** Five dates spread under a chart (first and last included), and its top value. */
function Ticks(props: { dates: string[]; max: number }) {
  const { dates } = props;
  const shown = [...new Set([0, 1, 2, 3, 4].map((k) => Math.round((k * (dates.length - 1)) / 4)))];
  return (
    <div class="ticks" aria-hidden="true">
      <span class="dates">
        {shown.map((d) => (
          <span key={d}>{shortDate(dates[d]!)}</span>
        ))}
      </span>
      <span>top {props.max.toLocaleString()}</span>
    </div>
  );
}

function Legend(props: { series: Series[] }) {
  return (
    <ul class="legend" aria-hidden="true">
      {props.series.map((s) => (
        <li key={s.name}>
          <span class={`swatch ${s.tone}`} />
          {s.name}
        </li>
      ))}
    </ul>
  );
}

function DayTable(props: { title: string; dates: string[]; series: Series[] }) {
  return (
    <details>
      <summary>{props.title}: the numbers</summary>
      {/* Scrolls when the range is long: focusable, so a keyboard can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus */}
      <section class="scroll" tabIndex={0} aria-label={`${props.title}, by day`}>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {props.series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.dates.map((date, d) => (
              <tr key={date}>
                <th scope="row">{date}</th>
                {props.series.map((s) => (
                  <td key={s.name}>{s.values[d] === null ? '–' : s.values[d]!.toLocaleString()}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}

/** Named counts as a table whose rows carry a bar of their share of the largest. */
export function CountTable(props: {
  title: string;
  rows: [string, number][];
  /** Header of the first column. */
  what: string;
  empty?: string;
}) {
  const max = Math.max(1, ...props.rows.map(([, n]) => n));
  return (
    <section class="counts">
      <h3>{props.title}</h3>
      {props.rows.length === 0 ? (
        <p class="hint">{props.empty ?? 'None in this range.'}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{props.what}</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map(([name, count]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  <span class="count-bar" style={{ width: `${(count / max) * 100}%` }} />
                  <span class="count-number">{count.toLocaleString()}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
