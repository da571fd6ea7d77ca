import { describe, expect, it } from 'vitest';
import { atExpression, closeScheduleName } from '#domain/close-schedule.ts';

describe('close schedules', () => {
  it('round the time up to the next whole second so the closer never runs early', () => {
    expect(atExpression('2030-01-02T03:04:05.001Z')).toBe('at(2030-01-02T03:04:06)');
    expect(atExpression('2030-01-02T03:04:05.000Z')).toBe('at(2030-01-02T03:04:05)');
    expect(atExpression('2030-12-31T23:59:59.500Z')).toBe('at(2031-01-01T00:00:00)');
  });

  it('are named after the form, within the Scheduler’s 64 characters', () => {
    const name = closeScheduleName('0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10');
    expect(name).toBe('close-form-0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10');
    expect(name.length).toBeLessThanOrEqual(64);
  });
});
