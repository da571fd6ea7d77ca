import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { ROOT } from './dev-process.ts';

const run = promisify(execFile);

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real admin CLI against the test run's local stack. */
export async function admin(...args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(ROOT, 'bin', 'admin.ts'), ...args, '--state-dir', inject('stateDir')],
      { cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1' } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A new team of its own, so limits and listings of one test never meet another's. */
export async function newTeam(
  plan: 'free' | 'pro',
): Promise<{ teamId: string; userId: string; apiKey: string }> {
  const result = await admin(
    'team',
    'create',
    '--name',
    `Test ${plan}`,
    '--email',
    `${plan}@example.com`,
    '--plan',
    plan,
  );
  if (result.code !== 0) throw new Error(`admin team create failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
