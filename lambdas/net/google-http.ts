import type { AttemptResult } from '#domain/webhook-delivery.ts';

/**
 * One HTTP exchange with Google (the token endpoint or the Sheets API),
 * answered in the webhook sender's terms (`AttemptResult` of
 * #domain/webhook-delivery.ts) so a worker applies the same retry rules
 * (docs/delivery.md#retries): a status with its `Retry-After`, or a timeout
 * or network error. The deadline covers the response's body too: a body
 * still arriving at the deadline is a timeout.
 */

/** Google has 10 s per call, as a webhook receiver has (docs/integrations.md#failures-of-a-call). */
export const GOOGLE_TIMEOUT_MS = 10_000;
/** A body larger than this is cut off and read as a network error (a sheet's id column fits). */
export const GOOGLE_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

export type GoogleExchange =
  | { kind: 'response'; status: number; retryAfter?: string; json: unknown }
  | { kind: 'error'; error: 'timeout' | 'network'; message: string };

/** The exchange as the webhook rules read it (a response's body left out). */
export function attemptOf(exchange: GoogleExchange): AttemptResult {
  if (exchange.kind === 'error') {
    return { kind: 'error', error: exchange.error, message: exchange.message };
  }
  const result: AttemptResult = { kind: 'response', status: exchange.status };
  if (exchange.retryAfter !== undefined) result.retryAfter = exchange.retryAfter;
  return result;
}

async function readBounded(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) throw new Error(`the answer is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function googleExchange(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  timeoutMs = GOOGLE_TIMEOUT_MS,
): Promise<GoogleExchange> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'manual' });
    const text = await readBounded(response, GOOGLE_BODY_LIMIT_BYTES);
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const exchange: GoogleExchange = { kind: 'response', status: response.status, json };
    const retryAfter = response.headers.get('retry-after');
    if (retryAfter !== null) exchange.retryAfter = retryAfter;
    return exchange;
  } catch (error) {
    if (signal.aborted) {
      return { kind: 'error', error: 'timeout', message: `no answer within ${timeoutMs} ms` };
    }
    const cause = (error as Error & { cause?: { code?: string } }).cause;
    return {
      kind: 'error',
      error: 'network',
      message: cause?.code ?? (error as Error).message,
    };
  }
}

/**
 * Google's own words for a failed call (`error.message`, or the token
 * endpoint's `error_description`), on one line and at most 200 characters:
 * fit for a delivery log. Google's messages name no credential.
 */
export function googleReason(exchange: GoogleExchange): string {
  if (exchange.kind === 'error') return exchange.message;
  const body = (exchange.json ?? {}) as {
    error?: { message?: unknown } | string;
    error_description?: unknown;
  };
  const said =
    typeof body.error === 'object' && typeof body.error?.message === 'string'
      ? body.error.message
      : typeof body.error_description === 'string'
        ? body.error_description
        : typeof body.error === 'string'
          ? body.error
          : '';
  const words = said
    .replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, 200);
  return words === '' ? `HTTP ${exchange.status}` : `HTTP ${exchange.status}: ${words}`;
}
