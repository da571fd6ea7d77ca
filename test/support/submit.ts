import { randomInt } from 'node:crypto';
import { request } from 'node:http';
import { stack } from './api.ts';

export interface SubmitResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer is JSON. */
  body: Record<string, unknown> | undefined;
  text: string;
}

export interface SubmitOptions {
  method?: string;
  /** Raw body bytes; or use `json` / `form`. */
  body?: string | Buffer;
  json?: unknown;
  /** Sent urlencoded; pairs keep repeated names. */
  form?: Record<string, string> | [string, string][];
  contentType?: string;
  /** An array sends the header once per value, on lines of its own. */
  headers?: Record<string, string | string[]>;
  /**
   * The loopback address to post from (any 127.x.y.z works on Linux): the
   * local gateway reports it as the caller's IP, so tests can be many visitors.
   */
  from?: string;
  allowServerError?: boolean;
  /** Path instead of `/s/{key}`. */
  path?: string;
  /** Another stack's base URL than the test run's. */
  baseUrl?: string;
}

/** Real HTTP to the local gateway's submit endpoint (node:http, to choose the source address). */
export function submit(key: string, options: SubmitOptions = {}): Promise<SubmitResponse> {
  let body: Buffer | undefined;
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] ??= 'application/json';
  } else if (options.form !== undefined) {
    const pairs = Array.isArray(options.form) ? options.form : Object.entries(options.form);
    body = Buffer.from(new URLSearchParams(pairs).toString());
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  }
  if (options.contentType) headers['content-type'] = options.contentType;
  const url = new URL(options.path ?? `/s/${key}`, options.baseUrl ?? stack().baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
        localAddress: options.from ?? '127.0.0.1',
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status >= 500 && !options.allowServerError) {
            reject(new Error(`POST ${url.pathname} answered ${status}: ${text.slice(0, 500)}`));
            return;
          }
          let parsed: Record<string, unknown> | undefined;
          if (String(res.headers['content-type'] ?? '').includes('json')) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
          }
          resolve({ status, headers: res.headers, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Where this file's run of addresses starts: at random among the 62,500 of
 * its worker's block, since every file of a worker would otherwise start at
 * the same address, and the suite's one stack counts per-address limits
 * (sign-in emails: 30 an hour a requester) across files.
 */
let nextAddress = randomInt(62_500);
/** A loopback address no other test of this file has used: a fresh visitor. */
export function freshVisitor(): string {
  nextAddress += 1;
  const worker = Number(process.env.VITEST_POOL_ID ?? 1) % 250;
  return `127.${worker + 1}.${Math.floor(nextAddress / 250) % 250}.${(nextAddress % 250) + 1}`;
}

/**
 * A multipart body from FormData. `emptyFileInput` adds the part a browser sends for a file
 * input left empty (`filename=""`, no bytes); undici's FormData cannot produce it, as it
 * leaves out an empty filename.
 */
export async function multipart(parts: (form: FormData) => void, emptyFileInput?: string) {
  const form = new FormData();
  parts(form);
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type')!;
  let body = Buffer.from(await encoded.arrayBuffer());
  if (emptyFileInput) {
    const boundary = contentType.split('boundary=')[1]!;
    const closing = Buffer.from(`--${boundary}--\r\n`);
    const part = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${emptyFileInput}"; filename=""\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n\r\n',
    );
    body = Buffer.concat([body.subarray(0, body.length - closing.length), part, closing]);
  }
  return { body, contentType };
}

/** `count` visitors posting different answers at once. */
export function burst(key: string, count: number, label = 'visitor'): Promise<SubmitResponse[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      submit(key, { json: { visitor: `${label} ${i}` }, from: freshVisitor() }),
    ),
  );
}

/**
 * The rate limits count in fixed one-minute windows (lambdas/domain/rate-limit.ts): a burst
 * that crosses a minute's boundary is counted in two windows and does not reach the limit it
 * should. Runs `burst` until one run starts and ends within one minute (at most three runs)
 * and gives that run's result; each run must count against limits of its own (a fresh
 * visitor, form or key). A burst of a few seconds, under the suite's load, crosses a boundary
 * about once in twenty runs: the check it serves stays exact, its timing is taken out.
 */
export async function inOneMinute<T>(burst: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    const startedIn = Math.floor(Date.now() / 60_000);
    const result = await burst();
    if (Math.floor(Date.now() / 60_000) === startedIn || run === 3) return result;
  }
}

/** How many answers had each status. */
export function tally(responses: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
