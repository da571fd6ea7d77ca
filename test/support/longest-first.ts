import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that took longest in a full run, longest first (2026-11-28, one
 * file at a time on 2 cores). A fresh clone (CI) has no timings of an earlier run and vitest
 * then orders files by size: a long file drawn last leaves the other worker idle while it ends.
 */
const LONGEST = [
  'test/integration/dev-runner.test.ts',
  'test/integration/counter-shards.test.ts',
  'test/integration/submit-fuzz.test.ts',
  'test/integration/dev-restart-work.test.ts',
  'test/integration/dashboard-inbox.test.ts',
  'test/integration/emulators/dynamodb.test.ts',
  'test/integration/submissions-export.test.ts',
  'test/integration/dashboard-a11y.test.ts',
  'test/integration/dashboard-data.test.ts',
  'test/integration/dashboard-workspace.test.ts',
  'test/integration/form-page-browser.test.ts',
  'test/integration/admin-dlq.test.ts',
  'test/integration/dashboard-inbox-triage.test.ts',
  'test/integration/dashboard-submission.test.ts',
  'test/integration/form-page-uploads.test.ts',
  'test/integration/dashboard-emails.test.ts',
  'test/integration/dashboard-webhook.test.ts',
  'test/integration/sign-in-bounds.test.ts',
  'test/integration/dashboard-settings.test.ts',
  'test/integration/dashboard-integrations.test.ts',
];

/** Where a project's files go in the run: the stack's files first, the CPU-bound tiers after. */
const PROJECT_ORDER = ['integration', 'infra', 'unit'];

/**
 * Vitest's own order (timings of the last run when it has them, else sizes), then: the
 * integration files before the infra and unit files, and among them the files above first.
 * Infra and unit files keep the CPU busy and are short: they fill the end of the run, when
 * one worker would otherwise wait on the other's last file.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const project = PROJECT_ORDER.indexOf(spec.project.name);
      const at = LONGEST.indexOf(relative(root, spec.moduleId));
      return [project === -1 ? PROJECT_ORDER.length : project, at === -1 ? LONGEST.length : at];
    };
    // Array sort is stable: files not listed keep vitest's order among themselves.
    return sorted.sort((a, b) => {
      const [projectA, atA] = rank(a);
      const [projectB, atB] = rank(b);
      return projectA! - projectB! || atA! - atB!;
    });
  }
}
