import { globSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.ts';
import { RetriedReporter } from './test/support/retried-reporter.ts';

const UNIT = ['test/unit/**/*.test.ts', 'lambdas/**/*.test.ts'];

/**
 * Unit and infra files share one module cache per worker (`isolate: false`): each file no
 * longer imports the AWS SDK, the CDK library and the handlers anew (measured: unit 40 → 18 s
 * of CPU, infra 118 → 84 s). A file that replaces a module with `vi.mock` keeps its own
 * cache, so its fake never reaches another file: those files are found here, not listed.
 */
const mocking = (patterns: string[]) =>
  patterns
    .flatMap((pattern) => globSync(pattern))
    .filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8')));
const MOCKING = mocking(UNIT);

/**
 * Integration files that flip a switch of an emulator every file shares, so a file running
 * beside them would meet it: the SES account's sending paused (email-tenants). They run in a
 * project of their own, one file at a time, after every other file. (Faults a test can scope
 * to its own team's tenant or its own spreadsheet are scoped instead: email-events, sheets.)
 */
const ALONE = ['test/integration/email-tenants.test.ts'];

/** The integration tiers' shared settings: the one stack of the run, and waits for its load. */
const integration = {
  globalSetup: ['test/integration/global-setup.ts'],
  // Bounds for the whole suite's load (two files at once, the stack, Chromium and DynamoDB
  // Local on 2 cores), never a claim about the product's speed: a poll ends as soon as what
  // it waits for is there, a test as soon as its last check passed.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // A page or a queue under the whole suite's load may take seconds to show a change.
  expect: { poll: { timeout: 20_000, interval: 100 } },
  // A failed test runs again, twice at most: under the whole suite's load a wait sized for it
  // still runs out now and then (each of the last three CI runs failed on one such test, each
  // passing alone). Only the stack's tiers retry; a test that needed it is named with its first
  // error at the end of the run (RetriedReporter), to be fixed, never to be read as green.
  retry: 2,
};

// Three tiers: pure unit tests, integration tests over real HTTP against the
// local stack (started once per run by the global setup), and infra tests
// that synthesize the CDK stack. Unit tests live in test/unit or beside the
// module they test in lambdas/ (middlewares: one file, its test beside it).
export default defineConfig({
  test: {
    // Three files at once on 2 cores (vitest's default there is one): an integration file spends
    // much of its time waiting on the stack's queues and timers, and the files share the stack
    // (each has its own teams, forms and visitor addresses: freshVisitor's block per
    // VITEST_POOL_ID). Whole runs, one machine, 2026-11-28: 2 workers 847 s, 3 workers 749 s
    // (CPU 1.51 of the 2 cores), 4 workers 760 s. Again 2026-11-29 after the stack's idle cuts:
    // 3 workers 665 s, 4 workers 628 s but 150 submit timeouts under the 200-post tests.
    maxWorkers: 3,
    reporters: ['default', new RetriedReporter()],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...MOCKING],
          isolate: false,
          // Unit files run beside an integration file, the stack and Chromium on 2 cores: a
          // test that takes 0.5 s alone (building the OpenAPI document) took over 5 s there.
          testTimeout: 30_000,
        },
      },
      {
        test: { name: 'unit-mocking', include: MOCKING, testTimeout: 30_000 },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ALONE,
          // Each file its own module cache (the default): a file points the store's client at
          // the run's stack, or at an emulator of its own, through the environment before
          // importing it (test/support/store.ts). Shared, a file's client reached the next
          // file's tests (tried: local-pollers' emulator met the summary's tests).
          ...integration,
        },
      },
      {
        test: {
          name: 'integration-alone',
          include: ALONE,
          // One worker and the default group: vitest runs these files one by one, after the rest.
          maxWorkers: 1,
          ...integration,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          isolate: false,
          testTimeout: 120_000,
        },
      },
    ],
  },
});
