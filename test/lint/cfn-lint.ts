import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { synthesize } from '#test/infra/synthesize.ts';

/**
 * `npm run lint:cfn`: cfn-lint (AWS's CloudFormation linter, a Python tool:
 * `pip install cfn-lint`) over the templates of every shape the stack takes
 * (docs/deploying.md#your-own-domain): plain; own domain with a Route 53
 * zone; own domain with a certificate and no zone; tenants off. It is not
 * part of `npm test`: CI machines reach the npm registry and Debian's
 * packages, not PyPI. Errors fail it; warnings are printed.
 */
const ZONE = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'acme.test' };
const VARIANTS: Record<string, Record<string, unknown>> = {
  plain: {},
  zone: {
    emailDomain: 'acme.test',
    emailSenderAddress: 'forms@acme.test',
    domainName: 'forms.acme.test',
    ...ZONE,
  },
  certificate: {
    domainName: 'forms.acme.test',
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0b1c2d3e-aaaa-bbbb-cccc',
  },
  'tenants-off': { sesTenants: false },
};

const found = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
if (found.error || found.status !== 0) {
  console.error('cfn-lint is not installed here: `pip install cfn-lint` (Python 3.9 or later).');
  process.exit(2);
}
console.log(`cfn-lint ${found.stdout.trim() || found.stderr.trim()}`);

const directory = mkdtempSync(join(tmpdir(), 'form-service-cfn-lint-'));
let failed = false;
for (const [name, context] of Object.entries(VARIANTS)) {
  const built = synthesize({ context });
  const files = [
    [`${name}.template.json`, built.template.toJSON()],
    [`${name}.observability.template.json`, built.observability.toJSON()],
  ] as const;
  for (const [file, template] of files) {
    const path = join(directory, file);
    writeFileSync(path, JSON.stringify(template));
    // Exit status is a bit field: 2 errors, 4 warnings, 8 informational.
    const run = spawnSync('cfn-lint', ['--format', 'parseable', '--', path], {
      encoding: 'utf8',
    });
    const lines = run.stdout.trim().split('\n').filter(Boolean);
    const errors = lines.filter((line) => /:E\d{4}:/.test(line));
    console.log(`${file}: ${errors.length} errors, ${lines.length - errors.length} warnings`);
    for (const line of errors) console.log(`  ${line.replace(`${directory}/`, '')}`);
    // Warnings by rule, with one example each: CDK repeats the same one per function.
    const byRule = Map.groupBy(
      lines.filter((line) => !errors.includes(line)),
      (line) => /:([WI]\d{4}):/.exec(line)?.[1] ?? '?',
    );
    for (const [rule, found] of byRule) {
      const example = found[0]?.split(`:${rule}:`)[1] ?? '';
      console.log(`  ${rule} ×${found.length}, e.g. ${example}`);
    }
    if (run.status === null || run.status & 2 || run.status & 1) failed = true;
  }
}
process.exit(failed ? 1 : 0);
