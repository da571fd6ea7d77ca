import { DEFAULT_RETRY_DELAYS_SECONDS } from './webhook-delivery.ts';

/**
 * How long a failing delivery is tried again, in words, from a schedule of
 * delays (docs/delivery.md#retries), so the dashboard and a delivery's last
 * error say what the worker does rather than a figure of their own: the
 * default 6,755 s (1 h 53 min; with jitter and the attempts' own time about
 * two hours) is "about two hours"; the test stack's `1,2,3` "a few seconds".
 */

const NUMBER_WORDS = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

const counted = (n: number, one: string, many: string) =>
  n === 1 ? `about ${one}` : `about ${NUMBER_WORDS[n] ?? n} ${many}`;

export function retryWindowWords(delaysSeconds: readonly number[]): string {
  const seconds = delaysSeconds.reduce((total, each) => total + each, 0);
  if (seconds <= 10) return 'a few seconds';
  if (seconds < 55) return `about ${Math.round(seconds / 10) * 10} seconds`;
  if (seconds < 3000) return counted(Math.round(seconds / 60), 'a minute', 'minutes');
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return counted(Math.max(hours, 1), 'an hour', 'hours');
  return counted(Math.round(hours / 24), 'a day', 'days');
}

/** The default schedule's window: "about two hours", as docs/delivery.md says. */
export const DEFAULT_RETRY_WINDOW = retryWindowWords(DEFAULT_RETRY_DELAYS_SECONDS);
