import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';
import { countInto, emptyRecount } from '#domain/summary-counters.ts';
import { summaryRange } from '#domain/summary-range.ts';
import { summaryReport } from '#domain/summary-report.ts';

/**
 * The NPS of a feedback form (docs/analytics.md#summary), from submissions
 * through the counters a recount writes to the report, against what this
 * file counts from the answers alone: 0 to 6 detract, 7 and 8 are passive,
 * 9 and 10 promote, score = % promoters - % detractors.
 */

const NOW = new Date('2026-11-24T22:30:00Z');
const range = summaryRange({ from: '2026-11-20', to: '2026-11-21', tz: 'UTC' }, NOW);

/** The issue's case: 60 answers to "How likely… 0–10", three of them 0. */
const ISSUE_ANSWERS = [
  ...Array(3).fill(0),
  ...[1, 2, 3, 4, 5, 6, 6, 5, 4],
  ...Array(12).fill(7),
  ...Array(12).fill(8),
  ...Array(12).fill(9),
  ...Array(12).fill(10),
] as number[];

function reportOf(field: FieldDefinition, answers: readonly number[]) {
  const form = { id: 'f', type: 'feedback' as const, fields: [field] };
  const recount = emptyRecount();
  answers.forEach((answer, i) => {
    const submission = {
      id: `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      formId: 'f',
      data: { [field.id]: String(answer) },
      meta: { userAgent: 'x', referrer: '' },
      read: false,
      starred: false,
      isSpam: false,
      isTest: false,
      createdAt: `2026-11-20T${String(i % 24).padStart(2, '0')}:10:00.000Z`,
    } as Submission;
    countInto(recount, { submission }, form);
  });
  return summaryReport({
    form,
    range,
    buckets: [...recount.hours].map(([hour, counters]) => ({ hour, counters })),
    signupDaysBefore: 0,
    now: NOW,
  });
}

/** What the summary must say of `answers`, counted here without the service's code. */
function expectedOf(answers: readonly number[], min: number) {
  const distribution: Record<string, number> = {};
  for (let n = min; n <= 10; n++) distribution[String(n)] = answers.filter((a) => a === n).length;
  const taken = answers.filter((a) => a >= min && a <= 10);
  const promoters = taken.filter((a) => a >= 9).length;
  const passives = taken.filter((a) => a === 7 || a === 8).length;
  const detractors = taken.filter((a) => a <= 6).length;
  return {
    distribution,
    average: Math.round((taken.reduce((a, b) => a + b, 0) / taken.length) * 100) / 100,
    nps: {
      promoters,
      passives,
      detractors,
      score: Math.round((100 * (promoters - detractors)) / taken.length),
    },
  };
}

describe('the NPS of a 0–10 rating', () => {
  const field: FieldDefinition = {
    id: 'likely',
    type: 'rating',
    label: 'How likely are you to recommend us?',
    required: true,
    min: 0,
    max: 10,
  };

  it('counts all 60 answers of the issue, the 0s as detractors: NPS 20 (it said 26 over 57)', () => {
    const report = reportOf(field, ISSUE_ANSWERS);
    const expected = expectedOf(ISSUE_ANSWERS, 0);
    const block = report.byType as Record<string, unknown>;
    const distribution = block.distribution as Record<string, number>;
    expect(Object.values(distribution).reduce((a, b) => a + b, 0)).toBe(60);
    expect(distribution).toEqual(expected.distribution);
    expect(distribution['0']).toBe(3);
    expect(block.nps).toEqual(expected.nps);
    expect(block.nps).toMatchObject({ score: 20, detractors: 12 });
    expect(block.average).toBe(expected.average);
    expect(report.fields.likely).toMatchObject({
      kind: 'rating',
      answered: 60,
      min: 0,
      max: 10,
      counts: expected.distribution,
    });
  });

  it('keeps a 1–10 rating as before: 1 to 6 detract, a 0 is no answer on its scale', () => {
    const stars: FieldDefinition = { id: 'stars', type: 'rating', required: true, max: 10 };
    const answers = ISSUE_ANSWERS.filter((a) => a > 0);
    const report = reportOf(stars, [...answers, 0]);
    const block = report.byType as Record<string, unknown>;
    expect(block.distribution).toEqual(expectedOf(answers, 1).distribution);
    expect(Object.keys(block.distribution as object)[0]).toBe('1');
    expect(block.nps).toEqual(expectedOf(answers, 1).nps);
    expect(report.fields.stars).toMatchObject({ min: 1, max: 10, answered: 58 });
  });

  it('gives no NPS to a rating out of 5, from 0 or 1', () => {
    for (const min of [0, 1]) {
      const report = reportOf({ id: 'r', type: 'rating', min, max: 5 }, [0, 1, 5]);
      expect((report.byType as { nps: unknown }).nps).toBeNull();
      expect(Object.keys((report.byType as { distribution: object }).distribution)).toEqual(
        Array.from({ length: 6 - min }, (_, i) => String(min + i)),
      );
    }
  });
});
