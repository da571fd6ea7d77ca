import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { count, flush, METRIC_DIMENSIONS, METRICS_NAMESPACE, METRICS_SERVICE } from '#metrics';

/** What the module writes to stdout and stderr while `fn` runs, line by line. */
function capture(fn: () => void): { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    stdout.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
    stderr.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  try {
    fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { stdout, stderr };
}

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}

/** Checks the EMF specification's structural rules and returns the parsed line. */
function emf(line: string): EmfLine {
  const parsed = JSON.parse(line) as EmfLine;
  expect(Number.isInteger(parsed._aws.Timestamp)).toBe(true);
  expect(Math.abs(parsed._aws.Timestamp - Date.now())).toBeLessThan(60_000);
  expect(parsed._aws.CloudWatchMetrics).toHaveLength(1);
  const [directive] = parsed._aws.CloudWatchMetrics;
  for (const set of directive!.Dimensions) {
    for (const name of set) expect(typeof parsed[name]).toBe('string');
  }
  for (const metric of directive!.Metrics) {
    const value = parsed[metric.Name];
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) expect(typeof v).toBe('number');
  }
  return parsed;
}

describe('metrics (EMF)', () => {
  beforeEach(() => {
    flush(); // nothing left over from another test
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes one EMF line to stdout at flush: namespace, service, metric names with unit Count, values', () => {
    const { stdout, stderr } = capture(() => {
      count('FormPurged');
      count('ExpiredSpamDeleted', 37);
      count('FormPurged');
      flush();
    });
    expect(stderr).toEqual([]);
    expect(stdout).toHaveLength(1);
    const line = emf(stdout[0]!);
    expect(line._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: METRICS_NAMESPACE,
      Dimensions: [['service']],
      Metrics: [
        { Name: 'FormPurged', Unit: 'Count' },
        { Name: 'ExpiredSpamDeleted', Unit: 'Count' },
      ],
    });
    expect(METRICS_NAMESPACE).toBe('FormService');
    // Nothing else rides along: no form id, no request data.
    const { _aws, ...rest } = line;
    expect(rest).toEqual({ service: METRICS_SERVICE, FormPurged: [1, 1], ExpiredSpamDeleted: 37 });
  });

  it('forgets what it published, and writes nothing (not even a warning) when nothing was counted', () => {
    const first = capture(() => {
      count('FormPurged');
      flush();
    });
    expect(first.stdout).toHaveLength(1);
    const second = capture(() => flush());
    expect(second).toEqual({ stdout: [], stderr: [] });
  });

  it('publishes counts with other dimensions in their own line, dimensions named in the directive', () => {
    const { stdout } = capture(() => {
      count('EmailSent', 2, { kind: 'autoreply' });
      count('ExpiredSpamDeleted', 5);
      count('EmailSent', 3, { kind: 'autoreply' });
      flush();
    });
    const lines = stdout.map(emf);
    expect(lines).toHaveLength(2);
    const withKind = lines.find((line) => 'kind' in line)!;
    const plain = lines.find((line) => !('kind' in line))!;
    expect(withKind._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service', 'kind']]);
    expect(withKind).toMatchObject({
      service: METRICS_SERVICE,
      kind: 'autoreply',
      EmailSent: [2, 3],
    });
    expect(plain._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
    expect(plain).toMatchObject({ ExpiredSpamDeleted: 5 });
  });

  it('types every count by METRIC_DIMENSIONS: a metric gets exactly its declared dimension names', () => {
    capture(() => {
      // @ts-expect-error: ExpiredSpamDeleted is declared without dimensions.
      count('ExpiredSpamDeleted', 1, { plan: 'pro' });
      // @ts-expect-error: EmailSent is declared with `kind`.
      count('EmailSent', 1);
      // @ts-expect-error: SubmissionRejected needs both `code` and `status`.
      count('SubmissionRejected', 1, { code: 'x' });
      flush();
    });
    for (const [name, dimensions] of Object.entries(METRIC_DIMENSIONS)) {
      expect(name).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(new Set(dimensions).size).toBe(dimensions.length);
    }
  });
});
