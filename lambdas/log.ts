import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from './config.ts';

/**
 * Structured JSON logs, one object a line, carrying the request id of the
 * invocation they belong to. AsyncLocalStorage keeps ids apart when the local
 * gateway serves requests concurrently in one process. Callers pass only
 * redacted values: no secrets, no full API keys.
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

const scope = new AsyncLocalStorage<Record<string, unknown>>();

export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return scope.run({ ...scope.getStore(), ...fields }, fn);
}

/** The request id of the HTTP request this code runs for, if any (benches meter by it). */
export function currentRequestId(): string | undefined {
  const id = scope.getStore()?.requestId;
  return typeof id === 'string' ? id : undefined;
}

export function addLogContext(fields: Record<string, unknown>): void {
  const store = scope.getStore();
  if (store) Object.assign(store, fields);
}

function threshold(): number {
  return LEVELS[config.logLevel as Level] ?? LEVELS.info;
}

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] < threshold()) return;
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    message,
    ...scope.getStore(),
    ...fields,
  });
  if (LEVELS[level] >= LEVELS.error) process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};

/** An error as log fields: message and stack, never request data. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error)
    return { error: { name: error.name, message: error.message, stack: error.stack } };
  return { error: String(error) };
}
