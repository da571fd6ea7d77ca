import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that took longest in a full run (2026-11-26, 14 s to 38 s each),
 * longest first. A fresh clone (CI) has no timings of an earlier run, and vitest then orders
 * files by size: a long file drawn last leaves the other worker idle while it ends.
 */
const LONGEST = [
  'test/integration/dev-runner.test.ts',
  'test/integration/submit-fuzz.test.ts',
  'test/integration/delivery.test.ts',
  'test/integration/form-page-browser.test.ts',
  'test/integration/submissions-export.test.ts',
  'test/integration/dashboard-a11y.test.ts',
  'test/integration/counter-shards.test.ts',
  'test/integration/dashboard-inbox-triage.test.ts',
  'test/integration/emulators/dynamodb.test.ts',
  'test/integration/dashboard-workspace.test.ts',
  'test/integration/dashboard-webhook.test.ts',
  'test/integration/dashboard-data.test.ts',
  'test/integration/retention.test.ts',
  'test/integration/submit-idempotency.test.ts',
];

/** Vitest's own order (projects apart, then timings or sizes), with the files above first. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.indexOf(relative(root, spec.moduleId));
      return at === -1 ? LONGEST.length : at;
    };
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of sorted) {
      const name = spec.project.name;
      byProject.set(name, [...(byProject.get(name) ?? []), spec]);
    }
    // Array sort is stable: files not listed keep vitest's order among themselves.
    return [...byProject.values()].flatMap((specs) => specs.sort((a, b) => rank(a) - rank(b)));
  }
}
