import { describe, expect, it } from 'vitest';
import {
  parseReplayJob,
  replayJobs,
  replayRange,
  SUBMISSIONS_PER_REPLAY_JOB,
} from '#domain/stream-replay.ts';

const formId = '0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10';
const id = (n: number) => `019a0000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const now = new Date('2026-11-28T12:00:00.000Z');

describe('a replay of the stream’s work (docs/operations.md#replaying-the-stream)', () => {
  it('names a form’s submissions 25 a message, in order', () => {
    const ids = Array.from({ length: 60 }, (_, n) => id(n));
    const jobs = replayJobs(formId, ids);
    expect(jobs.map((job) => job.submissionIds.length)).toEqual([25, 25, 10]);
    expect(jobs.flatMap((job) => job.submissionIds)).toEqual(ids);
    expect(SUBMISSIONS_PER_REPLAY_JOB).toBe(25);
    expect(replayJobs(formId, [])).toEqual([]);
  });

  it('reads a job back, and refuses a message that is none', () => {
    const [job] = replayJobs(formId, [id(1)]);
    expect(parseReplayJob(JSON.stringify(job))).toEqual(job);
    for (const body of [
      '{}',
      JSON.stringify({ formId: 'FORM#x', submissionIds: [id(1)] }),
      JSON.stringify({ formId, submissionIds: [] }),
      JSON.stringify({ formId, submissionIds: ['SUB#1'] }),
      JSON.stringify({ formId, submissionIds: Array.from({ length: 26 }, (_, n) => id(n)) }),
    ]) {
      expect(() => parseReplayJob(body), body).toThrow('not a replay job');
    }
  });

  it('takes a range of up to 7 days that starts in the past, as ISO times', () => {
    expect(replayRange('2026-11-28T10:00:00Z', '2026-11-28T11:00:00+00:00', now)).toEqual({
      from: '2026-11-28T10:00:00.000Z',
      to: '2026-11-28T11:00:00.000Z',
    });
    expect(() => replayRange('yesterday', '2026-11-28T11:00:00Z', now)).toThrow(
      '--from must be an ISO time',
    );
    expect(() => replayRange('2026-11-28T11:00:00Z', '2026-11-28T10:00:00Z', now)).toThrow(
      '--from must be before --to',
    );
    expect(() => replayRange('2026-11-01T00:00:00Z', '2026-11-28T00:00:00Z', now)).toThrow(
      'at most 7 days',
    );
    expect(() => replayRange('2026-11-29T00:00:00Z', '2026-11-29T01:00:00Z', now)).toThrow(
      'in the future',
    );
  });
});
