import type { Schedule, ScheduleTarget } from './scheduler-model.ts';
import type { SchedulerStore } from './scheduler-store.ts';

export interface FiredSchedule {
  name: string;
  groupName: string;
}

export type InvokeTarget = (target: ScheduleTarget, schedule: FiredSchedule) => Promise<void>;

export interface RunnerOptions {
  store: SchedulerStore;
  invoke: InvokeTarget;
  tickMs: number;
  /** Pause before retrying a failed invocation. */
  retryDelayMs: number;
  maxAttempts: number;
  log: (message: string) => void;
}

interface RunState {
  attempts: number;
  nextAttemptAt: number;
  running: boolean;
}

/**
 * Fires due schedules, then deletes them (every schedule is ActionAfterCompletion DELETE).
 * Run state is keyed by the schedule object, and an update replaces that object, so moving
 * a schedule's time makes it fire again, as on AWS.
 */
export class ScheduleRunner {
  readonly #options: RunnerOptions;
  readonly #runs = new WeakMap<Schedule, RunState>();
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: RunnerOptions) {
    this.#options = options;
  }

  start(): void {
    this.#timer = setInterval(() => this.tick(), this.#options.tickMs);
    // The HTTP server keeps the process alive while it runs; the timer alone should not.
    this.#timer.unref();
  }

  /** Stops firing and waits for invocations already under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.allSettled(this.#inFlight);
  }

  tick(now = Date.now()): void {
    for (const schedule of this.#options.store.allSchedules()) {
      if (schedule.dueAt > now) continue;
      let run = this.#runs.get(schedule);
      if (run === undefined) {
        run = { attempts: 0, nextAttemptAt: 0, running: false };
        this.#runs.set(schedule, run);
      }
      if (run.running || run.nextAttemptAt > now) continue;
      const attempt = this.#fire(schedule, run);
      this.#inFlight.add(attempt);
      void attempt.finally(() => this.#inFlight.delete(attempt));
    }
  }

  async #fire(schedule: Schedule, run: RunState): Promise<void> {
    const { store, invoke, retryDelayMs, maxAttempts, log } = this.#options;
    run.running = true;
    run.attempts += 1;
    try {
      await invoke(schedule.target, { name: schedule.name, groupName: schedule.groupName });
      store.deleteIfUnchanged(schedule);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (run.attempts >= maxAttempts) {
        // AWS would now send the event to the target's dead-letter queue, if it has one.
        log(
          `scheduler: dropping ${schedule.groupName}/${schedule.name} after ${run.attempts} failed attempts: ${reason}`,
        );
        store.deleteIfUnchanged(schedule);
      } else {
        run.nextAttemptAt = Date.now() + retryDelayMs;
      }
    } finally {
      run.running = false;
    }
  }
}
