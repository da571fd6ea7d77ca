import { isPending } from './confirmation-state.ts';
import { ratingScale } from './field-rules.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import type { Submission } from './submission-model.ts';

/**
 * What one submission adds to its hour's counters (docs/analytics.md#summary):
 * a pure function of the submission as it is now and of the form's fields,
 * so a change of a submission moves the counters by the difference between
 * its two states, and a recount from the submissions gives the same
 * numbers. Counter names:
 *
 * - `s` stored (neither spam nor test), `p` spam (a test moved to spam
 *   too), `t` tests outside spam; `nv` stored from a page that counts no
 *   views (`meta.noView`);
 * - the rest only for stored ones: `dv:<device>`, `cc:<country>`,
 *   `rf:<referrer host>`, `a:<field>` answered, `o:<field>:<option>` choices
 *   (matched to an option ignoring case and surrounding spaces; a value
 *   matching none is `(other)`), `c:<field>` ticked,
 *   `r:<field>:<score>`, `n:<field>:<number>`, `u` unread, `m:<minutes>`
 *   minutes from receipt to first read, and on an rsvp form
 *   `g:<choice field>:<number field>` guests of the "yes" answers.
 *
 * Views (`v`) and dropped posts (`d:<reason>`) are counted where they
 * happen, not from submissions.
 */
export type Counters = Record<string, number>;

export const DROP_REASONS = [
  'honeypot',
  'fillTime',
  'blockedIp',
  'blockedCountry',
  'rateLimited',
  'closed',
  'overLimit',
  'captcha',
  'spamCap',
] as const;
export type SummaryDropReason = (typeof DROP_REASONS)[number];

/**
 * The dropped-post counter of a submit outcome's reason or a refusal's
 * code, for posts stopped after their form was found; undefined for the
 * refusals the summary does not count (a malformed post, a disallowed site).
 */
export function dropCounter(reasonOrCode: string): string | undefined {
  const reason: Record<string, SummaryDropReason> = {
    blocked_ip: 'blockedIp',
    blocked_country: 'blockedCountry',
    honeypot: 'honeypot',
    fill_time: 'fillTime',
    spam_cap: 'spamCap',
    rate_limited: 'rateLimited',
    form_closed: 'closed',
    submission_limit_reached: 'overLimit',
    captcha_failed: 'captcha',
    captcha_unavailable: 'captcha',
  };
  const name = reason[reasonOrCode];
  return name ? `d:${name}` : undefined;
}

export const DEVICES = ['mobile', 'desktop', 'tablet', 'bot', 'unknown'] as const;

/**
 * Posts that waited for their visitor's confirmation and expired unconfirmed
 * (docs/submit.md#confirm-by-email): counted by the purge that deletes them,
 * in the hour they were posted; all that is left of them.
 */
export const NOT_CONFIRMED_COUNTER = 'nc';

/** Longest answer kept as a counter name (a number or an option: options are at most 200). */
const MAX_VALUE_LENGTH = 200;

/** The hour bucket of an instant: `YYYYMMDDHH` in UTC. */
/**
 * Views one visitor (address and user agent) may add to one form in a
 * minute (docs/analytics.md#summary): a page reloaded by hand stays well
 * under it, a script sending beacons in a loop counts no more.
 */
export const VIEWS_PER_VISITOR_PER_MINUTE = 10;

export function hourOf(iso: string): string {
  return iso.slice(0, 13).replace(/[-T]/g, '');
}

/** The start of a UTC hour bucket `YYYYMMDDHH`, in ms. */
export function hourStart(hour: string): number {
  return Date.UTC(
    Number(hour.slice(0, 4)),
    Number(hour.slice(4, 6)) - 1,
    Number(hour.slice(6, 8)),
    Number(hour.slice(8, 10)),
  );
}

/** A referrer's host, lower case; undefined for no referrer or one that is not an http(s) URL. */
export function referrerHost(referrer: string): string | undefined {
  if (!URL.canParse(referrer)) return undefined;
  const url = new URL(referrer);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
}

/** A number answer as a counter name: its canonical decimal form, or undefined. */
function numberKey(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '' || !Number.isFinite(Number(trimmed))) return undefined;
  return String(Number(trimmed));
}

/** How answers meet options: without surrounding spaces, in any case (docs/analytics.md#summary). */
const folded = (value: string) => value.trim().toLowerCase();

const isYes = (value: string) => folded(value) === 'yes';

/**
 * The option a choice answer counts under: the option it is, else the one it
 * is in another case or with spaces around ("YES", " yes " count as "Yes",
 * as the rsvp block and its guests read them), else a former option's
 * (docs/forms.md#changing-options): the option it was renamed to, or its own
 * words when kept apart; else `(other)`. So an answer counts the same before
 * and after a change of the options, and a change of the submission moves
 * what its receipt added.
 */
export function optionOf(
  options: readonly string[],
  value: string,
  former: Readonly<Record<string, string | null>> = {},
): string {
  if (options.includes(value)) return value;
  const option = options.find((each) => folded(each) === folded(value));
  if (option !== undefined) return option;
  const words = Object.keys(former).find((each) => folded(each) === folded(value));
  if (words === undefined) return '(other)';
  return former[words] ?? words;
}

/** The counters a submission adds, as it is now; `{}` for none. */
export function countersOf(
  submission: Submission,
  form: Pick<FormRecord, 'type' | 'fields'>,
): Counters {
  // Spam first: a test moved to spam counts as spam, as the spam folder holds it, so the
  // tests counted are those the inbox shows (docs/api-basics.md#counting).
  if (submission.isSpam) return { p: 1 };
  if (submission.isTest) return { t: 1 };
  // Waiting for its visitor's confirmation: counted from the click (docs/analytics.md#summary).
  if (isPending(submission)) return {};
  const counters: Counters = { s: 1 };
  const add = (name: string, by = 1) => {
    counters[name] = (counters[name] ?? 0) + by;
  };
  add(`dv:${submission.meta.deviceClass ?? 'unknown'}`);
  if (submission.meta.noView) add('nv');
  if (submission.meta.country) add(`cc:${submission.meta.country}`);
  const host = referrerHost(submission.meta.referrer);
  if (host) add(`rf:${host}`);
  if (!submission.read) add('u');
  if (submission.firstReadAt) {
    const minutes = Math.max(
      0,
      Math.floor((Date.parse(submission.firstReadAt) - Date.parse(submission.createdAt)) / 60_000),
    );
    add(`m:${minutes}`);
  }
  const fields = form.fields ?? [];
  for (const field of fields) {
    const value = submission.data[field.id];
    if (value === undefined || value.trim() === '') continue;
    add(`a:${field.id}`);
    fieldCounters(field, value, add);
  }
  if (form.type === 'rsvp') {
    for (const choice of fields.filter((f) => f.type === 'radio' || f.type === 'select')) {
      if (!isYes(submission.data[choice.id] ?? '')) continue;
      for (const guests of fields.filter((f) => f.type === 'number')) {
        const number = Number(submission.data[guests.id] ?? '');
        if (Number.isFinite(number) && number !== 0) add(`g:${choice.id}:${guests.id}`, number);
      }
    }
  }
  return counters;
}

function fieldCounters(
  field: FieldDefinition,
  value: string,
  add: (name: string, by?: number) => void,
): void {
  switch (field.type) {
    case 'select':
    case 'radio': {
      add(`o:${field.id}:${optionOf(field.options ?? [], value, field.formerOptions)}`);
      return;
    }
    case 'checkbox':
      add(`c:${field.id}`);
      return;
    case 'rating': {
      // The field's own scale: a 0 on a 0–10 question counts (docs/analytics.md#summary).
      const { min, max } = ratingScale(field);
      const score = Number(value);
      if (Number.isInteger(score) && score >= min && score <= max) add(`r:${field.id}:${score}`);
      return;
    }
    case 'number': {
      const key = numberKey(value);
      if (key !== undefined && key.length <= MAX_VALUE_LENGTH) add(`n:${field.id}:${key}`);
      return;
    }
    default:
      return;
  }
}

/** `after - before`, without the zeros: what a change moves. */
export function difference(before: Counters, after: Counters): Counters {
  const moved: Counters = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const by = (after[name] ?? 0) - (before[name] ?? 0);
    if (by !== 0) moved[name] = by;
  }
  return moved;
}

/**
 * What a removed submission takes back: only the state of now (unread),
 * never history. A deleted submission stays counted as stored on its day,
 * like the month's usage.
 */
export function removalOf(before: Counters): Counters {
  return before.u ? { u: -before.u } : {};
}

/** What a rebuild writes: the counters of every hour and a waitlist's signups. */
export interface Recount {
  /** `YYYYMMDDHH` → counters. */
  hours: Map<string, Counters>;
  /** A waitlist's signups a UTC day, `YYYYMMDD` → count. */
  signupDays: Map<string, number>;
  /**
   * A waitlist's first signup of each sender → that submission's id; a
   * sender as the caller names them (the keyed hash of their address:
   * docs/privacy.md#the-signup-mark), compared trimmed and in lower case.
   */
  firstSignups: Map<string, string>;
}

export const emptyRecount = (): Recount => ({
  hours: new Map(),
  signupDays: new Map(),
  firstSignups: new Map(),
});

/**
 * Adds a submission as it is now to a recount of its form's rollups
 * (submissions given oldest first, with the sender of a waitlist signup:
 * its address's keyed hash, or any one string per person). The recount is what the stream would have counted, except
 * what only the stream saw: deleted submissions, and first signups later
 * moved to spam.
 */
export function countInto(
  recount: Recount,
  entry: { submission: Submission; email?: string },
  form: Pick<FormRecord, 'type' | 'fields'>,
): void {
  const { submission, email } = entry;
  const hour = hourOf(submission.createdAt);
  const counters = recount.hours.get(hour) ?? {};
  const added = countersOf(submission, form);
  for (const [name, by] of Object.entries(added)) counters[name] = (counters[name] ?? 0) + by;
  if (form.type === 'waitlist' && added.s) {
    const day = hour.slice(0, 8);
    recount.signupDays.set(day, (recount.signupDays.get(day) ?? 0) + 1);
    const address = email?.trim().toLowerCase();
    if (address && !recount.firstSignups.has(address)) {
      recount.firstSignups.set(address, submission.id);
      counters.e = (counters.e ?? 0) + 1;
    }
  }
  recount.hours.set(hour, counters);
}

/**
 * One stream record's change to one rollup item of a form: an hour's
 * counters (`hour`, key `YYYYMMDDHH`) or a waitlist's signups of a month
 * (`month`, key `YYYYMM`, a counter a day).
 */
export interface RollupChange {
  formId: string;
  bucket: { kind: 'hour' | 'month'; key: string };
  counters: Counters;
  /** The record's stream sequence number. */
  sequence: string;
  /** The record's place in its batch. */
  index: number;
}

/** A batch's changes to one item, added up: written once, as if record by record. */
export interface RollupRun {
  formId: string;
  bucket: RollupChange['bucket'];
  counters: Counters;
  /** The sequence numbers of its first and last record. */
  first: string;
  last: string;
  /** The batch place of its first record. */
  index: number;
  changes: RollupChange[];
}

/**
 * A batch's changes grouped by item, in the order of each item's first
 * record, each run's counters summed (a counter that sums to 0 stays out;
 * the run is still written, to take its records). A burst of posts to one
 * form is one write an hour instead of one a post, on the form's hottest
 * item (docs/architecture.md#how-the-summary-is-kept).
 */
export function rollupRuns(changes: readonly RollupChange[]): RollupRun[] {
  const runs = new Map<string, RollupRun>();
  for (const change of changes) {
    const key = `${change.formId}\n${change.bucket.kind}\n${change.bucket.key}`;
    const run = runs.get(key);
    if (!run) {
      runs.set(key, {
        formId: change.formId,
        bucket: change.bucket,
        counters: { ...change.counters },
        first: change.sequence,
        last: change.sequence,
        index: change.index,
        changes: [change],
      });
      continue;
    }
    for (const [name, by] of Object.entries(change.counters)) {
      const sum = (run.counters[name] ?? 0) + by;
      if (sum === 0) delete run.counters[name];
      else run.counters[name] = sum;
    }
    run.last = change.sequence;
    run.changes.push(change);
  }
  return [...runs.values()];
}
