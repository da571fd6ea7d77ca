import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { ROOT } from './dev-process.ts';
import { localStore } from './store.ts';

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

/**
 * A new team of its own, so limits and listings of one test never meet another's. Made in
 * this process by the function the CLI's `team create` runs (admin-cli.test.ts tests the CLI
 * itself): a CLI process per team took about 0.3 s of CPU, for hundreds of teams a run.
 */
export async function newTeam(
  plan: 'free' | 'pro',
): Promise<{ teamId: string; userId: string; apiKey: string }> {
  return createTeam({ name: `Test ${plan}`, ownerEmail: `${plan}@example.com`, plan });
}

/** `npm run admin -- team create`'s work and answer, in this process. */
export async function createTeam(input: {
  name: string;
  ownerEmail: string;
  plan: 'free' | 'pro';
}): Promise<{ teamId: string; userId: string; apiKey: string }> {
  await localStore();
  const { createTeamWithKey } = await import('#lib/admin/accounts.ts');
  const { team, apiKey } = await createTeamWithKey(input);
  return { teamId: team.teamId, userId: team.ownerUserId, apiKey };
}
