import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
// The client itself, not ./api.ts: the data layer reads no page, so its unit tests need no DOM.
import { ApiError } from '#client/client.ts';

/**
 * The dashboard's one data layer (docs/dashboard.md#data-layer): screens read
 * with `useQuery` and change with `useAction`, and every failure is put into
 * words by `failureWords`, so no screen keeps its own loading, problem and
 * busy state or its own way of saying what went wrong.
 */

/** A refusal or failure as the person reads it: the route's own words where it gave some. */
export function failureWords(failure: unknown): string {
  if (!(failure instanceof ApiError)) return 'Something went wrong: try again.';
  if (failure.status === 0)
    return 'The service could not be reached: check the connection and try again.';
  // A refusal of one field names it (`url: must be https`); its message is the clearer words.
  return failure.issues[0]?.message ?? failure.message;
}

/**
 * One read at a time: starting one aborts the one it replaces, and only the
 * newest read's outcome is reported, however late an older answer comes.
 */
export class LatestRead {
  #current: AbortController | undefined;

  /** Runs `read`; `settle` hears its outcome only if no newer read (or `stop`) came first. */
  run<T>(
    read: (signal: AbortSignal) => Promise<T>,
    settle: { ok: (value: T) => void; failed: (failure: unknown) => void },
  ): Promise<void> {
    this.#current?.abort();
    const controller = new AbortController();
    this.#current = controller;
    const latest = () => this.#current === controller && !controller.signal.aborted;
    let started: Promise<T>;
    try {
      started = read(controller.signal);
    } catch (failure) {
      started = Promise.reject(failure);
    }
    return started.then(
      (value) => {
        if (latest()) settle.ok(value);
      },
      (failure: unknown) => {
        if (latest()) settle.failed(failure);
      },
    );
  }

  /** Aborts the read under way (the screen is gone); its outcome is dropped. */
  stop(): void {
    this.#current?.abort();
    this.#current = undefined;
  }
}

/**
 * Reads that share one request: the form's workspace and the screen in it
 * both want the form as a page opens (a lazy screen asks once its code has
 * come, which may be long after the workspace's answer on a slow line or a
 * busy machine). Each caller keeps its own signal: one leaving does not
 * abort the others' answer; the request is aborted when the last one
 * leaves. An answer serves every read of the page it was asked for
 * (`page()` unchanged since), however late; a read of another page gets it
 * within `keepMs` of its coming, then asks anew. `keep` replaces it when the
 * caller saved a newer state (a save answers with it).
 */
export class SharedReads<T> {
  #underWay = new Map<
    string,
    { answer: Promise<T>; controller: AbortController; waiting: number }
  >();
  #kept = new Map<string, { value: T; at: number; page: unknown }>();

  readonly #keepMs: number;
  readonly #page: () => unknown;
  readonly #now: () => number;

  constructor(options: { keepMs: number; page: () => unknown; now?: () => number }) {
    this.#keepMs = options.keepMs;
    this.#page = options.page;
    this.#now = options.now ?? (() => Date.now());
  }

  read(key: string, fetcher: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const kept = this.#kept.get(key);
    if (kept && (kept.page === this.#page() || this.#now() - kept.at < this.#keepMs))
      return Promise.resolve(kept.value);
    let shared = this.#underWay.get(key);
    if (!shared) {
      // The answer belongs to the page that asked, even if it comes once another is shown.
      const page = this.#page();
      const controller = new AbortController();
      const answer = fetcher(controller.signal);
      const entry = { answer, controller, waiting: 0 };
      const done = () => {
        if (this.#underWay.get(key) === entry) this.#underWay.delete(key);
      };
      answer.then((value) => {
        if (this.#underWay.get(key) === entry)
          this.#kept.set(key, { value, at: this.#now(), page });
        done();
      }, done);
      this.#underWay.set(key, entry);
      shared = entry;
    }
    const entry = shared;
    entry.waiting++;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        entry.waiting--;
        if (entry.waiting === 0) {
          entry.controller.abort();
          if (this.#underWay.get(key) === entry) this.#underWay.delete(key);
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', leave, { once: true });
      entry.answer.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (failure: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(failure);
        },
      );
    });
  }

  /**
   * The newest state of `key`, from a save's answer: a read soon after gets
   * it, and a read started before the save, answering after it, is neither
   * kept nor joined (its answer is older than this one).
   */
  keep(key: string, value: T): void {
    this.#underWay.delete(key);
    this.#kept.set(key, { value, at: this.#now(), page: this.#page() });
  }
}

export interface Query<T> {
  /** The newest answer read; kept while the next read runs, so nothing flashes. */
  data: T | undefined;
  /** The newest read's failure, until the next read starts. */
  error: unknown;
  loading: boolean;
  /** Reads again (a retry, or after a change); settles when this read ends or is replaced. */
  reload: () => Promise<void>;
  /** Replaces the answer held (an action's answer is the newer state). */
  setData: (data: T) => void;
}

/**
 * Reads with `fetcher` whenever `key` changes; a read a newer key or reload
 * replaces is aborted and its answer never shown.
 */
export function useQuery<T>(key: string, fetcher: (signal: AbortSignal) => Promise<T>): Query<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({
    loading: true,
  });
  const reads = useRef<LatestRead>(undefined);
  reads.current ??= new LatestRead();
  const latestFetcher = useRef(fetcher);
  latestFetcher.current = fetcher;
  const reload = useCallback(() => {
    setState((now) => ({ data: now.data, loading: true }));
    return reads.current!.run((signal) => latestFetcher.current(signal), {
      ok: (data) => setState({ data, loading: false }),
      failed: (error) => setState((now) => ({ data: now.data, error, loading: false })),
    });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key is what starts a new read
  useEffect(() => {
    void reload();
    return () => reads.current!.stop();
  }, [key, reload]);
  const setData = useCallback((data: T) => setState({ data, loading: false }), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, setData };
}

/** What an action says when it ends: a notice when done, its failure in words. */
export interface ActionReport {
  busy: (busy: boolean) => void;
  done: (notice: string) => void;
  failed: (words: string) => void;
}

/**
 * Runs one action and reports it: busy while it runs, then the notice `done`
 * makes of its answer, or its failure in words. Never rejects: a failure is
 * shown, not left unhandled. The answer, or undefined when it failed.
 */
export async function perform<T>(
  work: () => Promise<T>,
  done: string | ((value: T) => string) | undefined,
  report: ActionReport,
): Promise<T | undefined> {
  report.busy(true);
  report.failed('');
  report.done('');
  try {
    const value = await work();
    if (done !== undefined) report.done(typeof done === 'string' ? done : done(value));
    return value;
  } catch (failure) {
    report.failed(failureWords(failure));
    return undefined;
  } finally {
    report.busy(false);
  }
}

export interface Action {
  busy: boolean;
  /** The last failure in words, '' when the last run did not fail. */
  error: string;
  notice: string;
  run: <T>(
    work: () => Promise<T>,
    done?: string | ((value: T) => string),
  ) => Promise<T | undefined>;
  setNotice: (notice: string) => void;
  /** Forgets the last notice and failure (the person moved on). */
  clear: () => void;
  /**
   * What puts the last change back, offered beside its notice ("Undo", or
   * the `z` key: docs/dashboard.md#undo) until the next run or `clear`.
   */
  undo: (() => void) | undefined;
  /** Offers `undo` for the change the notice just said. */
  offerUndo: (undo: () => void) => void;
}

/** Busy, failure and notice of a screen's actions, one run at a time (see `perform`). */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  // Held in an object: a function given to a state setter would be called as an updater.
  const [undo, setUndo] = useState<{ run: () => void }>();
  const run = useCallback(<T>(work: () => Promise<T>, done?: string | ((value: T) => string)) => {
    setUndo(undefined);
    return perform(work, done, { busy: setBusy, done: setNotice, failed: setError });
  }, []);
  const clear = useCallback(() => {
    setNotice('');
    setError('');
    setUndo(undefined);
  }, []);
  const offerUndo = useCallback((undo: () => void) => setUndo({ run: undo }), []);
  return { busy, error, notice, run, setNotice, clear, undo: undo?.run, offerUndo };
}
