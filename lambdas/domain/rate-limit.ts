/**
 * Fixed-window rate limits: each window is one counter item, so a check is a
 * single atomic ADD. A burst can straddle a boundary (up to twice the limit
 * over two adjacent windows); for per-minute limits that is accepted in
 * exchange for one write per request and no clock coordination.
 */
export interface RateWindow {
  /** Start of the window, epoch ms; part of the counter's key. */
  start: number;
  /** When the window ends, epoch ms. */
  end: number;
}

export function windowAt(now: number, windowSeconds: number): RateWindow {
  const size = windowSeconds * 1000;
  const start = Math.floor(now / size) * size;
  return { start, end: start + size };
}

/** Whole seconds until the window ends, at least 1: the `Retry-After` value. */
export function retryAfterSeconds(window: RateWindow, now: number): number {
  return Math.max(1, Math.ceil((window.end - now) / 1000));
}
