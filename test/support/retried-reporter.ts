import type { Reporter, SerializedError, TestCase } from 'vitest/node';

/**
 * Names every test that passed only on a retry, with the error of each failed try, at the end
 * of the run. The integration tiers retry a failed test (vitest.config.ts): a test that needed
 * it is still a defect to fix (a wait sized for a quieter machine, or a race in the product),
 * and this list is where the next session reads it, in the run's output and in CI's.
 */
export class RetriedReporter implements Reporter {
  private readonly retried: { name: string; errors: string[] }[] = [];

  onTestCaseResult(test: TestCase): void {
    const { retryCount } = test.diagnostic() ?? { retryCount: 0 };
    if (retryCount === 0 || test.result().state !== 'passed') return;
    // A passed test's public result() drops the failed tries' errors; the runner's task keeps them.
    const { task } = test as unknown as { task: { result?: { errors?: SerializedError[] } } };
    const errors = (task.result?.errors ?? []).map((error) =>
      `${error.name ?? 'Error'}: ${error.message ?? ''}`.split('\n')[0]!.slice(0, 300),
    );
    this.retried.push({ name: `${test.module.relativeModuleId} > ${test.fullName}`, errors });
  }

  onTestRunEnd(): void {
    if (this.retried.length === 0) return;
    const lines = [`\nPassed only on a retry (${this.retried.length}): fix each one`];
    for (const { name, errors } of this.retried) {
      lines.push(`  ${name}`);
      for (const error of errors) lines.push(`    failed before: ${error}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
