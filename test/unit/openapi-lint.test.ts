import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `openapi.json` passes a real OpenAPI linter: Redocly CLI's recommended
 * rules (`redocly lint`) with zero errors. Warnings are listed, not failed.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin/cli.js',
);

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

function lint(): { totals: { errors: number; warnings: number }; problems: Problem[] } {
  let output: string;
  try {
    output = execFileSync(process.execPath, [cli, 'lint', 'openapi.json', '--format=json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Exit code 1 when there are errors; the JSON report is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  return JSON.parse(output.slice(output.indexOf('{')));
}

describe('openapi.json lint (@redocly/cli)', () => {
  it('has no errors under the recommended rules', { timeout: 60_000 }, () => {
    const { totals, problems } = lint();
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(totals.errors).toBe(0);
  });
});
