/**
 * The tests' one way to wait for something to happen: read again and again
 * until the answer is the awaited one, instead of sleeping for a guessed time.
 * (Inside an `expect`, `expect.poll` does the same; this is for waits whose
 * value a test goes on to use, and for helpers outside a test body.)
 */

export interface PollOptions {
  /** How long to keep reading; 10 s unless told. */
  timeoutMs?: number;
  /** The pause between two reads; 100 ms unless told. */
  intervalMs?: number;
}

/**
 * Reads `read` until `done` holds or `timeoutMs` passes, and returns the last
 * value read: the caller asserts on it, so a wait that times out fails with
 * what was seen rather than a bare timeout.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 100 }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Like `eventually`, but throws (naming `what` and the last value) when `done` never holds. */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions & { what?: string } = {},
): Promise<T> {
  const value = await eventually(read, done, options);
  if (!done(value)) {
    const seen = typeof value === 'object' ? JSON.stringify(value) : String(value);
    throw new Error(
      `${options.what ?? 'condition'} not met in ${options.timeoutMs ?? 10_000} ms (last: ${seen?.slice(0, 200)})`,
    );
  }
  return value;
}
