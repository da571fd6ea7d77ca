import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalStackInfo } from '#lib/local/stack.ts';
import { startChromiumServer } from '#test/support/browser.ts';
import { ROOT, startDevProcess } from '#test/support/dev-process.ts';
import { type Certificate, localCertificate } from '#test/support/webhook-receiver.ts';
import {
  TEST_CONFIRM_LINK_SECONDS,
  TEST_IDEMPOTENCY_WINDOW_SECONDS,
  TEST_MIN_FILL_TIME_MS,
  TEST_RECEIVER_TIMEOUT_MS,
  TEST_RETENTION_DAY_SECONDS,
  TEST_RETENTION_SWEEP_SECONDS,
  TEST_SCAN_LATE_SECONDS,
  TEST_SPAM_CAP,
  TEST_WEBHOOK_RETRY_DELAYS,
} from './stack-settings.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
    stateDir: string;
    /** The HTTPS webhook receivers' certificate, which the stack trusts. */
    receiverCertificate: Certificate;
    /** The run's shared Chromium (playwright's browser server), empty when none was found. */
    chromiumEndpoint: string;
    /** The run's keyed-hash secret, so a test can compute the hash the stack stores. */
    keyedHashSecret: string;
  }
}

/** What the run's one stack gives every test file, and how to stop it. */
interface RunStack {
  provided: {
    localStack: LocalStackInfo;
    stateDir: string;
    receiverCertificate: Certificate;
    chromiumEndpoint: string;
    keyedHashSecret: string;
  };
  stop(): Promise<void>;
}

/**
 * Both integration projects (`integration`, two files at once, and `integration-alone`,
 * the files that flip an emulator-wide switch, one at a time after the rest: vitest.config.ts)
 * run this setup in the one vitest process; the first starts the stack, the second shares it,
 * the last to tear down stops it. Each project loads this module apart, so the stack is held
 * on globalThis.
 */
const SHARED = Symbol.for('form-service.test-run-stack');
type Shared = { stack: Promise<RunStack>; users: number };

/** One local stack per test run: the real `npm run dev` process, in memory, on free ports. */
export default async function setup(project: TestProject) {
  const holder = globalThis as { [SHARED]?: Shared };
  holder[SHARED] ??= { stack: startRunStack(), users: 0 };
  const shared = holder[SHARED];
  shared.users += 1;
  const { provided, stop } = await shared.stack;
  for (const [key, value] of Object.entries(provided)) {
    project.provide(key as keyof typeof provided, value);
  }
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await stop();
  };
}

async function startRunStack(): Promise<RunStack> {
  const stateDir = await mkdtemp(join(tmpdir(), 'form-service-test-'));
  // A spam cap a test can reach in a few seconds, and webhook retries seconds apart instead
  // of minutes (3 retries, growing); the fill-time minimum below; every other setting as deployed.
  process.env.SPAM_MONTHLY_CAP_PER_FORM = String(TEST_SPAM_CAP);
  process.env.WEBHOOK_RETRY_DELAYS_SECONDS = TEST_WEBHOOK_RETRY_DELAYS.join(',');
  // Browser tests post at once instead of waiting out the deployed 2 s fill-time minimum
  // (the rule at its default is unit-tested in submission-answers.test.ts).
  process.env.MIN_FILL_TIME_MS = String(TEST_MIN_FILL_TIME_MS);
  // A hanging webhook receiver or Google call costs a test 3 s instead of 10.
  process.env.RECEIVER_TIMEOUT_MS = String(TEST_RECEIVER_TIMEOUT_MS);
  process.env.IDEMPOTENCY_WINDOW_SECONDS = String(TEST_IDEMPOTENCY_WINDOW_SECONDS);
  process.env.RETENTION_DAY_SECONDS = String(TEST_RETENTION_DAY_SECONDS);
  process.env.RETENTION_SWEEP_SECONDS = String(TEST_RETENTION_SWEEP_SECONDS);
  process.env.CONFIRM_LINK_SECONDS = String(TEST_CONFIRM_LINK_SECONDS);
  process.env.SCAN_LATE_SECONDS = String(TEST_SCAN_LATE_SECONDS);
  // The stack's keyed-hash secret, made here so tests can check a stored hash exactly.
  const keyedHashSecret = randomBytes(32).toString('hex');
  process.env.KEYED_HASH_SECRET = keyedHashSecret;
  // Webhook receivers of the tests are HTTPS on 127.0.0.1 with this certificate; the stack
  // verifies TLS as deployed and trusts it the way a developer's machine would.
  const certificate = await localCertificate();
  const caFile = join(stateDir, 'webhook-receiver-ca.pem');
  await writeFile(caFile, certificate.cert);
  process.env.NODE_EXTRA_CA_CERTS = caFile;
  const dev = await startDevProcess([
    '--in-memory',
    '--random-ports',
    '--state-dir',
    stateDir,
    '--log-level',
    'warn',
  ]);
  // One Chromium for every browser test of the run; test files connect to it.
  const chromiumServer = await startChromiumServer();
  return {
    provided: {
      localStack: dev.info,
      stateDir,
      receiverCertificate: certificate,
      chromiumEndpoint: chromiumServer?.wsEndpoint() ?? '',
      keyedHashSecret,
    },
    stop: async () => {
      await chromiumServer?.close();
      const code = await dev.stop();
      // What the stack logged (warnings and errors), for a failure that only the full suite shows.
      const log = join(ROOT, '.local', 'test-output', 'stack.log');
      await mkdir(dirname(log), { recursive: true });
      await writeFile(log, dev.output());
      await rm(stateDir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`dev stack exited with ${code}:\n${dev.output()}`);
    },
  };
}
