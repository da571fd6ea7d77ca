import type { DEVICES, SummaryDropReason } from '#domain/summary-counters.ts';
import type { FieldDefinition, FormAnalytics, Submission } from './model.ts';

/**
 * The summary screen's pure parts (docs/dashboard.md#screens): where a trend
 * chart's points go, the dropped posts in words, and the latest text
 * answers as short quotes. No DOM here, so each has a unit test.
 */

/** A point of a chart, in percent of its width and height (0 at the top). */
export interface PlotPoint {
  x: number;
  y: number;
}

/**
 * A trend line's shape: each run of two or more days in a row with a value
 * is a line; a day with a value and none on either side (a range of one
 * day, or a day between gaps) is a dot, since a line through one point has
 * no length and draws nothing.
 */
export interface LinePlot {
  lines: PlotPoint[][];
  dots: PlotPoint[];
}

/** Room left above the top value, in percent of the height, so the top is not cut. */
const HEADROOM = 2.5;

export function linePlot(values: readonly (number | null)[], max: number): LinePlot {
  const top = max > 0 ? max : 1;
  // One day alone stands in the middle, not on the left edge.
  const x = (d: number) => (values.length === 1 ? 50 : (d * 100) / (values.length - 1));
  const y = (value: number) => 100 - (Math.min(value, top) / top) * (100 - HEADROOM);
  const runs: PlotPoint[][] = [];
  let run: PlotPoint[] = [];
  values.forEach((value, d) => {
    if (value === null) {
      if (run.length > 0) runs.push(run);
      run = [];
      return;
    }
    run.push({ x: x(d), y: y(value) });
  });
  if (run.length > 0) runs.push(run);
  return {
    lines: runs.filter((r) => r.length > 1),
    dots: runs.filter((r) => r.length === 1).map((r) => r[0]!),
  };
}

/**
 * Why posts were dropped, as a person says it (docs/analytics.md#summary):
 * one sentence per reason the summary counts. A Record over the domain's
 * reasons, so a reason added there without words here fails the typecheck.
 */
export const DROP_WORDS: Record<SummaryDropReason, string> = {
  honeypot: 'Filled in the hidden field only robots see',
  fillTime: 'Sent faster than a person can fill the form',
  blockedIp: 'Sent from an address you blocked',
  blockedCountry: 'Sent from a country you blocked',
  rateLimited: 'Too many posts from one sender in a short time',
  closed: 'Sent while the form was closed',
  overLimit: 'Sent after the form reached its submission limit',
  captcha: 'Did not pass the robot check',
  spamCap: 'Spam past the form’s spam allowance, not kept',
};

/** The reasons with drops, most first, each as its sentence and count. */
export function droppedRows(
  dropped: Readonly<Record<SummaryDropReason, number>>,
): [string, number][] {
  return (Object.entries(dropped) as [SummaryDropReason, number][])
    .filter(([, count]) => count > 0)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => [DROP_WORDS[reason] ?? 'Dropped for another reason', count]);
}

/** Device classes in words, a Record over the domain's classes like the drops. */
export const DEVICE_WORDS: Record<(typeof DEVICES)[number], string> = {
  mobile: 'Phones',
  desktop: 'Computers',
  tablet: 'Tablets',
  bot: 'Robots',
  unknown: 'Not known',
};

/** The device classes with submissions, in words. */
export function deviceRows(devices: Readonly<Record<string, number>>): [string, number][] {
  return Object.entries(devices)
    .filter(([, count]) => count > 0)
    .map(([device, count]) => [DEVICE_WORDS[device as keyof typeof DEVICE_WORDS] ?? device, count]);
}

/** How long a quote may grow before it is cut, in characters. */
export const QUOTE_BOUND = 280;

/**
 * A text answer as a quote: runs of white space made one space, and an
 * answer past `bound` cut at the last whole word before it, with an
 * ellipsis (a word longer than the bound is cut inside it: nothing else fits).
 */
export function excerpt(text: string, bound = QUOTE_BOUND): { text: string; cut: boolean } {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= bound) return { text: flat, cut: false };
  const head = flat.slice(0, bound + 1);
  const space = head.lastIndexOf(' ');
  const kept = (space > 0 ? head.slice(0, space) : flat.slice(0, bound)).replace(
    /[\s,;:.–-]+$/,
    '',
  );
  return { text: `${kept}…`, cut: true };
}

/**
 * Words of answer names (without a field) about the sender rather than
 * what they wrote: their name, address, phone or company is never quoted.
 */
const ABOUT_THE_SENDER = new Set(
  'name firstname lastname fullname surname username email mail address street city town zip zipcode postcode postal country phone tel telephone mobile company'.split(
    ' ',
  ),
);

/** `your_name`, `e-mail`, `emailAddress`: the words of an answer name, lower case. */
const nameWords = (name: string) =>
  name
    .split(/[\s_.-]+|(?<=[a-z])(?=[A-Z])/)
    .map((word) => word.toLowerCase())
    .filter(Boolean);

/** An answer without a field is quoted when it is this long or of several lines: a paragraph. */
const LONG_TEXT = 40;

export interface TextAnswer {
  submissionId: string;
  receivedAt: string;
  /** The field's label (its name when it has none). */
  field: string;
  quote: string;
  cut: boolean;
}

/**
 * The long-text answers of the submissions given (newest first), at most
 * `limit` (docs/analytics.md#latest-text-answers): answers to the form's
 * paragraph fields (`textarea`) only, never a one-line text field, which
 * holds names and addresses. A form with no fields listed quotes an
 * answer only when it reads as a paragraph (40 characters or more, or
 * several lines) and its name says nothing of the sender (name, email,
 * address, phone, company…); never a hidden one (`_…`) or an email
 * address.
 */
export function latestTextAnswers(
  fields: readonly FieldDefinition[] | undefined,
  submissions: readonly Pick<Submission, 'id' | 'createdAt' | 'data'>[],
  limit = 10,
): TextAnswer[] {
  const picked: [string, string][] | undefined = fields?.length
    ? fields.filter((f) => f.type === 'textarea').map((f) => [f.id, f.label || f.id])
    : undefined;
  const answers: TextAnswer[] = [];
  for (const submission of submissions) {
    const named =
      picked ??
      Object.keys(submission.data)
        .filter((name) => {
          const value = submission.data[name]!.trim();
          if (name.startsWith('_')) return false;
          if (nameWords(name).some((word) => ABOUT_THE_SENDER.has(word))) return false;
          if (/^\S+@\S+\.\S+$/.test(value)) return false;
          return value.length >= LONG_TEXT || /[\r\n]/.test(value);
        })
        .map((name): [string, string] => [name, name]);
    for (const [id, label] of named) {
      const value = submission.data[id];
      if (!value?.trim()) continue;
      const { text, cut } = excerpt(value);
      answers.push({
        submissionId: submission.id,
        receivedAt: submission.createdAt,
        field: label,
        quote: text,
        cut,
      });
      if (answers.length >= limit) return answers;
    }
  }
  return answers;
}

/** Numbers and rates as the summary shows them; '–' when there is none. */
export const number = (value: number | null) => (value === null ? '–' : value.toLocaleString());
export const percent = (rate: number | null) =>
  rate === null ? '–' : `${(rate * 100).toLocaleString(undefined, { maximumFractionDigits: 1 })} %`;

/** Whole minutes as minutes, hours or days. */
export function minutes(value: number | null): string {
  if (value === null) return '–';
  if (value < 60) return `${value} min`;
  if (value < 48 * 60) return `${(value / 60).toFixed(1)} h`;
  return `${(value / 1440).toFixed(1)} days`;
}

/** The date `days` before `date`, both `YYYY-MM-DD`. */
export const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** What the summary says of its conversion (docs/analytics.md#views). */
export interface ConversionWords {
  /** The fact itself: a rate, '–' without views, or why there is none. */
  value: string;
  /** What the rate leaves out, or why it is not given; none when it counts every post. */
  note?: string;
}

/**
 * The conversion rate in words: never a rate whose views were not counted.
 * More posts than views means some came from a page that counted none (a
 * form pasted before it carried its view image): no rate then, but why.
 * Posts from pages that count no views at all (own forms, the API) are left
 * out of the rate, and said so.
 */
export function conversionWords(totals: {
  views: number;
  conversionRate: number | null;
  postsWithoutViews: number;
  viewsNotCounted: boolean;
}): ConversionWords {
  const without = totals.postsWithoutViews;
  const apart =
    without > 0
      ? `${without.toLocaleString()} ${without === 1 ? 'submission' : 'submissions'} came from pages that count no views (your own forms, the API) and ${without === 1 ? 'is' : 'are'} not in the rate.`
      : undefined;
  if (totals.viewsNotCounted) {
    return {
      value: 'Not counted',
      note: [
        'Views not counted for the pasted form: there are more submissions than views, as an HTML form pasted from Share before it carried its view image counts none, so no rate is given. Paste it again from Share to count them.',
        apart,
      ]
        .filter(Boolean)
        .join(' '),
    };
  }
  return { value: percent(totals.conversionRate), note: apart };
}

/** One row of the funnel as the summary draws it. */
export interface FunnelRow {
  step: string;
  count: number;
  /** The row's count over the views, in words ('–' without views). */
  share: string;
  /** The row's count over the views, 0 to 1, for its bar (0 without views). */
  width: number;
}

/**
 * The funnel's rows (docs/analytics.md#the-funnel): views, started, each
 * page from the second under its title (or "Step n" when it has none), and
 * sent, each with its share of the views. A row may pass the views (a
 * pasted form without its script posts without steps): the bar then stops
 * at full width, the share says how much.
 */
export function funnelRows(
  funnel: FormAnalytics['funnel'],
  pages: readonly { id: string; title?: string | null }[] | null | undefined,
): FunnelRow[] {
  const titles = new Map((pages ?? []).map((page) => [page.id, page.title?.trim() ?? '']));
  const row = (step: string, count: number): FunnelRow => ({
    step,
    count,
    share: funnel.views > 0 ? percent(count / funnel.views) : '–',
    width: funnel.views > 0 ? Math.min(1, count / funnel.views) : 0,
  });
  return [
    row('Views', funnel.views),
    row('Started', funnel.started),
    ...funnel.reached.map((reached) => {
      const title = titles.get(reached.page);
      return row(`Reached step ${reached.step}${title ? `: ${title}` : ''}`, reached.count);
    }),
    row('Sent', funnel.sent),
  ];
}
