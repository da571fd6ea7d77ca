import { describe, expect, it } from 'vitest';
import { failureWords, LatestRead, perform } from '#app/data.ts';
import { ApiError } from '#client/client.ts';

/** A promise settled from outside, like an answer that comes when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (failure: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('the dashboard data layer: a read replaced', () => {
  it('aborts the read it replaces, and a late older answer is never reported', async () => {
    const reads = new LatestRead();
    const seen: string[] = [];
    const signals: AbortSignal[] = [];
    const older = deferred<string>();
    const newer = deferred<string>();
    const settle = { ok: (value: string) => seen.push(value), failed: () => seen.push('failed') };
    const first = reads.run((signal) => {
      signals.push(signal);
      return older.promise;
    }, settle);
    const second = reads.run((signal) => {
      signals.push(signal);
      return newer.promise;
    }, settle);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    newer.resolve('new');
    await second;
    older.resolve('old');
    await first;
    expect(seen).toEqual(['new']);
  });

  it('drops a replaced read’s failure (the abort itself) and reports the newest one’s', async () => {
    const reads = new LatestRead();
    const seen: unknown[] = [];
    const settle = {
      ok: (value: string) => seen.push(value),
      failed: (f: unknown) => seen.push(f),
    };
    const first = reads.run(
      (signal) =>
        new Promise<string>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
      settle,
    );
    const refused = new ApiError(500, 'internal', 'The service failed.');
    await reads.run(() => Promise.reject(refused), settle);
    await first;
    expect(seen).toEqual([refused]);
  });

  it('stop aborts the read under way and drops its answer (the screen is gone)', async () => {
    const reads = new LatestRead();
    const seen: string[] = [];
    const answer = deferred<string>();
    let signal!: AbortSignal;
    const run = reads.run(
      (given) => {
        signal = given;
        return answer.promise;
      },
      { ok: (value) => seen.push(value), failed: () => seen.push('failed') },
    );
    reads.stop();
    expect(signal.aborted).toBe(true);
    answer.resolve('late');
    await run;
    expect(seen).toEqual([]);
  });

  it('reports a read that throws before it returns a promise as a failure', async () => {
    const reads = new LatestRead();
    const seen: unknown[] = [];
    await reads.run(
      () => {
        throw new Error('bad input');
      },
      { ok: () => seen.push('ok'), failed: (failure) => seen.push(failure) },
    );
    expect(seen).toHaveLength(1);
  });
});

describe('the dashboard data layer: an action', () => {
  const recorder = () => {
    const events: string[] = [];
    return {
      events,
      report: {
        busy: (busy: boolean) => events.push(busy ? 'busy' : 'idle'),
        done: (notice: string) => notice && events.push(`notice: ${notice}`),
        failed: (words: string) => words && events.push(`failed: ${words}`),
      },
    };
  };

  it('a failed action shows its words, is busy no more, and does not reject', async () => {
    const { events, report } = recorder();
    const refused = new ApiError(409, 'conflict', 'The webhook changed meanwhile: reload it.');
    const answer = await perform(() => Promise.reject(refused), 'Rotated', report);
    expect(answer).toBeUndefined();
    expect(events).toEqual(['busy', 'failed: The webhook changed meanwhile: reload it.', 'idle']);
  });

  it('a done action shows the notice made of its answer', async () => {
    const { events, report } = recorder();
    const answer = await perform(
      () => Promise.resolve({ count: 3 }),
      (a) => `${a.count} changed`,
      report,
    );
    expect(answer).toEqual({ count: 3 });
    expect(events).toEqual(['busy', 'notice: 3 changed', 'idle']);
  });

  it('puts every failure into words: the field’s refusal, an unreachable service, a bug', () => {
    expect(
      failureWords(
        new ApiError(400, 'invalid_request', 'The request is invalid.', [
          { path: 'url', message: 'The address must start with https://' },
        ]),
      ),
    ).toBe('The address must start with https://');
    expect(failureWords(new ApiError(402, 'pro_required', 'Webhooks are a Pro feature.'))).toBe(
      'Webhooks are a Pro feature.',
    );
    expect(failureWords(new ApiError(0, 'network', 'The service could not be reached.'))).toBe(
      'The service could not be reached: check the connection and try again.',
    );
    expect(failureWords(new TypeError('x is undefined'))).toBe('Something went wrong: try again.');
  });
});

describe('the typed client takes an AbortSignal per call', () => {
  it('hands the signal to fetch; an aborted call rejects with the abort, and onError is not told', async () => {
    const { createClient } = await import('#client/client.ts');
    const told: unknown[] = [];
    let given: AbortSignal | undefined;
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      onError: (error) => told.push(error),
      fetch: (_url, init) => {
        given = init?.signal ?? undefined;
        return new Promise((_, reject) =>
          given?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      },
    });
    const controller = new AbortController();
    const call = client.call('getForm', { params: { id: 'f1' }, signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(given).toBe(controller.signal);
    expect(told).toEqual([]);
  });
});
