import { invalidRequest } from './errors.ts';
import type { FormPage } from './form-logic.ts';
import type { Counters } from './summary-counters.ts';

/**
 * The funnel (docs/analytics.md#the-funnel): how far visitors of a form's
 * page get, without keeping any answer. The page's script sends a step
 * beacon (`POST /f/{key}/views?reached=…`) at the first answer (`started`)
 * and on first arriving at each page from the second (`reached=2`…); each
 * adds one to a counter of the form's hour bucket, beside the views:
 * `st` started, `pg:<n>` reached page n. What was answered is never sent.
 */

/** Step beacons one visitor may add to one form in a minute: its own budget, apart from views. */
export const STEP_BEACONS_PER_VISITOR_PER_MINUTE = 10;

/** What a step beacon says: the first answer, or the page (2…10) arrived on. */
export type FunnelStep = 'started' | number;

/**
 * The last page number a beacon may name: a form's most pages (MAX_PAGES of
 * form-logic-input.ts, which a unit test holds equal; not imported, so the
 * beacon does not bundle the logic's schemas).
 */
export const LAST_STEP = 10;

/** A valid `reached` as the step it names. */
export function stepOf(reached: string): FunnelStep {
  return reached === 'started' ? 'started' : Number(reached);
}

/**
 * Refuses a page the form does not have (400 `invalid_request` at `reached`):
 * a form of 3 pages takes 2 and 3; a form without pages takes only `started`.
 */
export function checkStepOfForm(step: FunnelStep, pageCount: number): void {
  if (step === 'started' || step <= pageCount) return;
  const message =
    pageCount < 2
      ? 'This form has one page: only "started" is counted'
      : `Must be "started" or a page of this form, from 2 to ${pageCount}`;
  throw invalidRequest('The query string is not valid', [
    { path: 'reached', code: 'too_big', message },
  ]);
}

/** The hour bucket's counter of a step. */
export function stepCounter(step: FunnelStep): string {
  return step === 'started' ? 'st' : `pg:${step}`;
}

/** A counter only step beacons write: a rebuild from the submissions keeps it. */
export function isStepCounter(name: string): boolean {
  return name === 'st' || name.startsWith('pg:');
}

/** The funnel of a range, as the summary answers it. */
export interface Funnel {
  /** Page loads that showed the form (the summary's `views`). */
  views: number;
  /** Page loads where the visitor answered anything. */
  started: number;
  /** Each page of the form now from the second: arrivals on it. */
  reached: { step: number; page: string; count: number }[];
  /** Stored submissions from pages that count their views (stored less postsWithoutViews). */
  sent: number;
}

/**
 * The funnel of a range's summed counters, over the form's pages now (a
 * page taken out since is no longer a step; its past arrivals stay in the
 * buckets, unshown). Sent is the stored posts of the pages that counted
 * the views, so every row is of the same pages (docs/analytics.md#the-funnel).
 */
export function funnelOf(
  total: Readonly<Counters>,
  pages: readonly Pick<FormPage, 'id'>[] | null | undefined,
): Funnel {
  return {
    views: total.v ?? 0,
    started: total.st ?? 0,
    reached: (pages ?? []).slice(1).map((page, index) => ({
      step: index + 2,
      page: page.id,
      count: total[stepCounter(index + 2)] ?? 0,
    })),
    sent: Math.max(0, (total.s ?? 0) - (total.nv ?? 0)),
  };
}
