import { isUuid } from './ids.ts';

/**
 * A replay of the stream's work for a time range (docs/operations.md#replaying-the-stream):
 * the admin command reads the range's submissions from the table and sends
 * them to the replay queue as jobs of one form's ids; the replayer runs the
 * dispatcher's code on each. Pure: the range's rules and the jobs' shape.
 */

/** Submissions a replay message names at most (one BatchGet of the replayer reads them). */
export const SUBMISSIONS_PER_REPLAY_JOB = 25;

/** The longest range one replay takes: the stream's work is lost for hours, not weeks. */
export const MAX_REPLAY_RANGE_DAYS = 7;

export interface ReplayJob {
  formId: string;
  submissionIds: string[];
}

/** The form's ids as jobs of at most SUBMISSIONS_PER_REPLAY_JOB, in the order given. */
export function replayJobs(formId: string, submissionIds: readonly string[]): ReplayJob[] {
  const jobs: ReplayJob[] = [];
  for (let i = 0; i < submissionIds.length; i += SUBMISSIONS_PER_REPLAY_JOB) {
    jobs.push({ formId, submissionIds: submissionIds.slice(i, i + SUBMISSIONS_PER_REPLAY_JOB) });
  }
  return jobs;
}

/** A replay message's job; throws (the message goes back, then to its DLQ) when it is none. */
export function parseReplayJob(body: string): ReplayJob {
  const job = JSON.parse(body) as Partial<ReplayJob>;
  if (
    !isUuid(job?.formId) ||
    !Array.isArray(job.submissionIds) ||
    job.submissionIds.length === 0 ||
    job.submissionIds.length > SUBMISSIONS_PER_REPLAY_JOB ||
    !job.submissionIds.every((id) => isUuid(id))
  ) {
    throw new Error('not a replay job: { formId, submissionIds: [1 to 25 ids] } expected');
  }
  return { formId: job.formId, submissionIds: job.submissionIds };
}

/**
 * The range `[from, to)` as ISO timestamps, from what an operator typed;
 * throws a sentence saying what is wrong.
 */
export function replayRange(
  fromText: string,
  toText: string,
  now: Date,
): { from: string; to: string } {
  const from = Date.parse(fromText);
  const to = Date.parse(toText);
  if (!Number.isFinite(from)) throw new Error(`--from must be an ISO time, got "${fromText}"`);
  if (!Number.isFinite(to)) throw new Error(`--to must be an ISO time, got "${toText}"`);
  if (from >= to) throw new Error('--from must be before --to');
  if (to - from > MAX_REPLAY_RANGE_DAYS * 86_400_000) {
    throw new Error(`a replay takes at most ${MAX_REPLAY_RANGE_DAYS} days; split the range`);
  }
  if (from > now.getTime()) throw new Error('--from is in the future: nothing to replay');
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
