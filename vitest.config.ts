import { defineConfig } from 'vitest/config';

// Three tiers: pure unit tests, integration tests over real HTTP against the
// local stack (started once per run by the global setup), and infra tests
// that synthesize the CDK stack. Unit tests live in test/unit or beside the
// module they test in lambdas/ (middlewares: one file, its test beside it).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'lambdas/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // A page or a queue under the whole suite's load may take seconds to show a change.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
