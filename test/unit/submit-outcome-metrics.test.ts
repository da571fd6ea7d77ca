import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { countOutcome, countRefusal } from '#http/submit/outcome-metrics.ts';
import type { SubmitOutcome } from '#http/submit/pipeline.ts';
import { flush } from '#metrics';

/** The EMF lines written while `fn` runs and the metrics flush: metric name with its dimensions. */
function published(fn: () => void): { name: string; dimensions: Record<string, unknown> }[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  try {
    fn();
    flush();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => {
    const parsed = JSON.parse(line);
    const directive = parsed._aws.CloudWatchMetrics[0];
    const names: string[] = directive.Dimensions[0];
    return {
      name: directive.Metrics[0].Name,
      dimensions: Object.fromEntries(names.map((n) => [n, parsed[n]])),
    };
  });
}

const view = { redirect: undefined, title: null, message: null, design: {} } as never;
const service = { service: 'form-service' };

describe('submit outcome metrics', () => {
  beforeEach(() => flush());
  afterEach(() => vi.restoreAllMocks());

  it('counts a stored post as accepted or as spam by its rule, a dropped one by its reason', () => {
    const outcomes: SubmitOutcome[] = [
      {
        kind: 'stored',
        submissionId: 's1',
        nearLimit: false,
        spamRule: undefined,
        pending: false,
        view,
      },
      {
        kind: 'stored',
        submissionId: 's2',
        nearLimit: true,
        spamRule: 'duplicate',
        pending: false,
        view,
      },
      { kind: 'dropped', reason: 'spam_cap', pending: false, view },
    ];
    expect(outcomes.map((outcome) => published(() => countOutcome(outcome)))).toEqual([
      [{ name: 'SubmissionAccepted', dimensions: service }],
      [{ name: 'SubmissionSpam', dimensions: { ...service, rule: 'duplicate' } }],
      [{ name: 'SubmissionDropped', dimensions: { ...service, reason: 'spam_cap' } }],
    ]);
  });

  it('counts a refusal by status and code; a code outside the endpoint’s set is other, an unexpected error 500', () => {
    expect(published(() => countRefusal(new ServiceError('busy', 'busy')))).toEqual([
      { name: 'SubmissionRejected', dimensions: { ...service, status: '503', code: 'busy' } },
    ]);
    expect(
      published(() =>
        countRefusal(new ServiceError('owner_only', 'a code the endpoint never answers')),
      ),
    ).toEqual([
      { name: 'SubmissionRejected', dimensions: { ...service, status: '403', code: 'other' } },
    ]);
    expect(published(() => countRefusal(new Error('boom')))).toEqual([
      {
        name: 'SubmissionRejected',
        dimensions: { ...service, status: '500', code: 'internal_error' },
      },
    ]);
  });
});
