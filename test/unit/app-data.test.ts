import { describe, expect, it } from 'vitest';
import { failureWords, LatestRead, perform, SharedReads } from '#app/data.ts';
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

/** A page that changes at every read: the answer kept is another page's. */
const newPage = () => {
  let pages = 0;
  return () => ++pages;
};

describe('the dashboard data layer: reads shared while under way', () => {
  it('two callers asking at once make one request and both get its answer', async () => {
    const reads = new SharedReads<string>({ keepMs: 0, page: newPage() });
    const answer = deferred<string>();
    let requests = 0;
    const fetcher = () => {
      requests++;
      return answer.promise;
    };
    const first = reads.read('form-1', fetcher, new AbortController().signal);
    const second = reads.read('form-1', fetcher, new AbortController().signal);
    const other = reads.read(
      'form-2',
      () => Promise.resolve('other'),
      new AbortController().signal,
    );
    answer.resolve('form');
    expect(await Promise.all([first, second, other])).toEqual(['form', 'form', 'other']);
    expect(requests).toBe(1);
    // Asked again after the answer, none kept: a new request.
    await reads.read('form-1', fetcher, new AbortController().signal);
    expect(requests).toBe(2);
  });

  it('one caller leaving does not abort the other’s answer; the last one leaving aborts the request', async () => {
    const reads = new SharedReads<string>({ keepMs: 0, page: newPage() });
    const answer = deferred<string>();
    let requestSignal: AbortSignal | undefined;
    const fetcher = (signal: AbortSignal) => {
      requestSignal = signal;
      return answer.promise;
    };
    const leaving = new AbortController();
    const staying = new AbortController();
    const left = reads.read('form-1', fetcher, leaving.signal);
    const stayed = reads.read('form-1', fetcher, staying.signal);
    leaving.abort();
    await expect(left).rejects.toBeDefined();
    expect(requestSignal!.aborted).toBe(false);
    answer.resolve('form');
    expect(await stayed).toBe('form');

    const never = deferred<string>();
    const alone = new AbortController();
    const read = reads.read(
      'form-3',
      (signal) => {
        requestSignal = signal;
        return never.promise;
      },
      alone.signal,
    );
    alone.abort();
    await expect(read).rejects.toBeDefined();
    expect(requestSignal!.aborted).toBe(true);
  });
});

describe('the dashboard data layer: an answer kept a moment', () => {
  it('a read within keepMs gets the answer kept (or the state a save kept), a later one asks again', async () => {
    let now = 1_000;
    const reads = new SharedReads<string>({ keepMs: 2000, page: newPage(), now: () => now });
    let requests = 0;
    const fetcher = () => Promise.resolve(`answer ${++requests}`);
    const signal = new AbortController().signal;
    expect(await reads.read('form-1', fetcher, signal)).toBe('answer 1');
    now += 1999;
    expect(await reads.read('form-1', fetcher, signal)).toBe('answer 1');
    reads.keep('form-1', 'saved');
    now += 1999;
    expect(await reads.read('form-1', fetcher, signal)).toBe('saved');
    now += 1;
    expect(await reads.read('form-1', fetcher, signal)).toBe('answer 2');
    expect(requests).toBe(2);
  });
});

describe('the dashboard data layer: an answer serves the page that asked for it', () => {
  it('a read of the same page gets the answer however late (a lazy screen’s code); another page asks again after keepMs', async () => {
    let now = 1_000;
    let page = 1;
    const reads = new SharedReads<string>({ keepMs: 2000, page: () => page, now: () => now });
    let requests = 0;
    const fetcher = () => Promise.resolve(`answer ${++requests}`);
    const signal = new AbortController().signal;
    expect(await reads.read('form-1', fetcher, signal)).toBe('answer 1');
    now += 60_000;
    expect(await reads.read('form-1', fetcher, signal), 'same page, a minute on').toBe('answer 1');
    page = 2;
    expect(await reads.read('form-1', fetcher, signal), 'another page, a minute on').toBe(
      'answer 2',
    );
    // Asked for by page 2, answered once page 3 shows: page 3 gets it within keepMs only.
    const late = deferred<string>();
    const asked = reads.read('form-2', () => late.promise, signal);
    page = 3;
    late.resolve('for page 2');
    await asked;
    now += 1999;
    expect(await reads.read('form-2', fetcher, signal)).toBe('for page 2');
    now += 1;
    expect(await reads.read('form-2', fetcher, signal)).toBe('answer 3');
    expect(requests).toBe(3);
  });

  it('a save’s answer serves the rest of the page it was made on', async () => {
    let now = 1_000;
    const reads = new SharedReads<string>({ keepMs: 2000, page: () => 1, now: () => now });
    const signal = new AbortController().signal;
    expect(await reads.read('form-1', () => Promise.resolve('read'), signal)).toBe('read');
    reads.keep('form-1', 'saved');
    now += 60_000;
    expect(await reads.read('form-1', () => Promise.resolve('read again'), signal)).toBe('saved');
  });
});

describe('the dashboard data layer: a save while a read is under way', () => {
  it('the read started before the save, answering after it, neither replaces the saved state nor is joined', async () => {
    const reads = new SharedReads<string>({ keepMs: 2000, page: newPage(), now: () => 1_000 });
    const before = deferred<string>();
    let requests = 0;
    const signal = new AbortController().signal;
    const old = reads.read(
      'form-1',
      () => {
        requests++;
        return before.promise;
      },
      signal,
    );
    reads.keep('form-1', 'saved');
    before.resolve('before the save');
    expect(await old).toBe('before the save');
    expect(await reads.read('form-1', () => Promise.resolve(`new ${++requests}`), signal)).toBe(
      'saved',
    );
    expect(requests).toBe(1);
  });
});
