import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalStackInfo } from '../../lib/local/stack.ts';
import { startDevProcess } from '../support/dev-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
    stateDir: string;
  }
}

/** The monthly spam cap per form of the test run's stack (the deployed default is 1,000). */
export const TEST_SPAM_CAP = 40;

/** One local stack per test run: the real `npm run dev` process, in memory, on free ports. */
export default async function setup(project: TestProject) {
  const stateDir = await mkdtemp(join(tmpdir(), 'form-service-test-'));
  // A spam cap a test can reach in a few seconds; every other setting as deployed.
  process.env.SPAM_MONTHLY_CAP_PER_FORM = String(TEST_SPAM_CAP);
  const dev = await startDevProcess([
    '--in-memory',
    '--random-ports',
    '--state-dir',
    stateDir,
    '--log-level',
    'warn',
  ]);
  project.provide('localStack', dev.info);
  project.provide('stateDir', stateDir);
  return async () => {
    const code = await dev.stop();
    await rm(stateDir, { recursive: true, force: true });
    if (code !== 0) throw new Error(`dev stack exited with ${code}:\n${dev.output()}`);
  };
}
