import { describe, expect, it } from 'vitest';
import { parseFormUpdate } from '#domain/form-update-input.ts';
import { isKept, keptFrom, RETENTION_DAYS_MAX } from '#domain/retention.ts';

describe('retention (docs/submissions.md#retention)', () => {
  const now = new Date('2026-11-26T12:00:00.000Z');

  it('keeps everything without a retention', () => {
    expect(keptFrom(null, now, 86_400)).toBeUndefined();
    expect(isKept({ createdAt: '2000-01-01T00:00:00.000Z' }, undefined)).toBe(true);
  });

  it('keeps what was received within the last retentionDays days, the cut-off itself included', () => {
    const from = keptFrom(30, now, 86_400);
    expect(from).toBe('2026-10-27T12:00:00.000Z');
    expect(isKept({ createdAt: '2026-10-27T12:00:00.000Z' }, from)).toBe(true);
    expect(isKept({ createdAt: '2026-10-27T11:59:59.999Z' }, from)).toBe(false);
    // A shortened day (the test stack's) scales the same way.
    expect(keptFrom(2, now, 3)).toBe('2026-11-26T11:59:54.000Z');
  });

  it('takes null or a whole number of days from 1 to 3650 in a PATCH', () => {
    expect(RETENTION_DAYS_MAX).toBe(3650);
    expect(parseFormUpdate({ retentionDays: null })).toEqual({ retentionDays: null });
    expect(parseFormUpdate({ retentionDays: 1 })).toEqual({ retentionDays: 1 });
    expect(parseFormUpdate({ retentionDays: 3650 })).toEqual({ retentionDays: 3650 });
    for (const bad of [0, 3651, 1.5, '30', true]) {
      expect(() => parseFormUpdate({ retentionDays: bad }), String(bad)).toThrow(
        expect.objectContaining({
          code: 'invalid_request',
          issues: [expect.objectContaining({ path: 'retentionDays' })],
        }),
      );
    }
  });
});
