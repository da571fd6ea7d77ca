import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEPLOY_VARIANTS } from '#test/infra/deploy-variants.ts';
import { stacksOf, synthesize } from '#test/infra/synthesize.ts';

/**
 * `npm run lint:cfn`: cfn-lint (AWS's CloudFormation linter, a Python tool:
 * `pip install cfn-lint`; machines of this project's kind, CI's included,
 * ship it) over every template, root and nested, of every shape a deployment
 * takes (test/infra/deploy-variants.ts, docs/deploying.md#shapes-of-a-deployment):
 * 45 templates, about a second each. Errors fail it; warnings are printed by
 * rule.
 *
 * `npm test` runs it with `--if-installed --each-part-once`: where cfn-lint
 * is not on the PATH it says it was skipped and passes; and it lints each
 * nested stack once, from the shape with every option on, plus each shape's
 * own root and stage templates, the only ones whose resources differ between
 * shapes (the route and worker stacks differ by values only: BASE_URL, a
 * secret's name). 17 templates instead of 45, in two cfn-lint processes.
 */
const ifInstalled = process.argv.includes('--if-installed');
const eachPartOnce = process.argv.includes('--each-part-once');
/** The shape with every option on: every nested stack's resources at their most. */
const FULLEST = 'all-options';
/** The templates whose resources a shape's settings change. */
const SHAPED = new Set(['root', 'Stage']);

const found = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
if (found.error || found.status !== 0) {
  if (ifInstalled) {
    console.log('lint:cfn skipped: cfn-lint is not on the PATH (pip install cfn-lint).');
    process.exit(0);
  }
  console.error('cfn-lint is not installed here: `pip install cfn-lint` (Python 3.9 or later).');
  process.exit(2);
}
console.log(`cfn-lint ${found.stdout.trim() || found.stderr.trim()}`);

const directory = mkdtempSync(join(tmpdir(), 'form-service-cfn-lint-'));
const files: string[] = [];
for (const [variant, context] of Object.entries(DEPLOY_VARIANTS)) {
  const built = synthesize({ context });
  for (const stack of stacksOf(built.stack)) {
    const name = stack.node.path.split('/').slice(1).join('-') || 'root';
    if (eachPartOnce && variant !== FULLEST && !SHAPED.has(name)) continue;
    const path = join(directory, `${variant}.${name}.template.json`);
    writeFileSync(path, JSON.stringify(built.templates.get(stack.node.path)!.toJSON()));
    files.push(path);
  }
}

// Two runs, one per core, each loading cfn-lint's rules and specs once for its half.
const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
const runs = await Promise.all(halves.filter((half) => half.length > 0).map(lint));
rmSync(directory, { recursive: true, force: true });
const lines = runs.flatMap((run) => run.stdout.trim().split('\n').filter(Boolean));
// Exit status is a bit field: 1 a failure of cfn-lint itself, 2 errors, 4 warnings, 8 informational.
let failed = runs.some((run) => run.status === null || (run.status & 3) !== 0);
for (const file of files) {
  const own = lines.filter((line) => line.startsWith(`${file}:`));
  const errors = own.filter((line) => /:E\d{4}:/.test(line));
  const shortName = file.slice(directory.length + 1);
  console.log(`${shortName}: ${errors.length} errors, ${own.length - errors.length} warnings`);
  for (const line of errors) console.log(`  ${line.slice(directory.length + 1)}`);
  // Warnings by rule, with one example each: CDK repeats the same one per function.
  const byRule = Map.groupBy(
    own.filter((line) => !errors.includes(line)),
    (line) => /:([WI]\d{4}):/.exec(line)?.[1] ?? '?',
  );
  for (const [rule, each] of byRule) {
    const example = each[0]?.split(`:${rule}:`)[1] ?? '';
    console.log(`  ${rule} ×${each.length}, e.g. ${example}`);
  }
  if (errors.length > 0) failed = true;
}
for (const run of runs) if (run.stderr.trim()) console.error(run.stderr.trim());
console.log(
  `${files.length} templates of ${Object.keys(DEPLOY_VARIANTS).length} deployment shapes`,
);
process.exit(failed ? 1 : 0);

function lint(paths: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('cfn-lint', ['--format', 'parseable', '--', ...paths]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
