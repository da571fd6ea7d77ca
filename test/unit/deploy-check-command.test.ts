import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordedAws, type Scenario, startRecordedAws } from '#test/support/recorded-aws.ts';

/**
 * `npm run admin -- deploy check` run as a deployer runs it (a child
 * process of bin/admin.ts, its real SDK clients), against AWS's recorded
 * answers served on 127.0.0.1 (test/support/recorded-aws.ts): its output and
 * exit status for the accounts a first deploy meets. Nothing leaves
 * 127.0.0.1: every client's endpoint is the recorded server, and the
 * credentials are made up.
 */

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
// No ~/.aws, no ~/.cdk.json, no profile of the machine's: only what a test passes.
const HOME = mkdtempSync(join(tmpdir(), 'deploy-check-home-'));

const ZONE = 'Z0123456789ABCDEFGHIJ';
const CERTIFICATE =
  'arn:aws:acm:us-east-1:111122223333:certificate/12345678-1234-1234-1234-123456789012';
const PENDING_ELSEWHERE =
  'arn:aws:acm:eu-west-1:111122223333:certificate/87654321-4321-4321-4321-210987654321';

/** A production account with everything a deploy on acmeforms.net needs. */
const ALL_CLEAR: Scenario = {
  lambdaAccountSettings: { file: 'lambda/account-settings.json' },
  sesAccount: { file: 'sesv2/account-production.json' },
  identities: { 'acmeforms.net': { file: 'sesv2/identity-domain-verified.json' } },
  tenants: { file: 'sesv2/tenants.json' },
  zones: { [ZONE]: { file: 'route53/hosted-zone-public.xml' } },
  certificates: {
    [CERTIFICATE]: { file: 'acm/certificate-issued.json' },
    [PENDING_ELSEWHERE]: { file: 'acm/certificate-pending-other-name.json' },
  },
  catalog: 'ssm/catalog.json',
};

const SENDER = ['-c', 'emailSenderAddress=forms@acmeforms.net'];
const OWN_DOMAIN = [
  '-c',
  'domainName=forms.acmeforms.net',
  '-c',
  `hostedZoneId=${ZONE}`,
  '-c',
  'hostedZoneName=acmeforms.net',
  '-c',
  `certificateArn=${CERTIFICATE}`,
];

let aws: RecordedAws | undefined;
afterEach(async () => {
  await aws?.close();
  aws = undefined;
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

const deployCheck = (scenario: Scenario, ...args: string[]) =>
  deployCheckWith({}, scenario, ...args);

/** The command with the test's AWS variables changed (`undefined`: unset). */
async function deployCheckWith(
  changes: Record<string, string | undefined>,
  scenario: Scenario,
  ...args: string[]
): Promise<Result> {
  await aws?.close();
  aws = await startRecordedAws(scenario);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('AWS_') && value !== undefined) env[key] = value;
  }
  Object.assign(env, aws.env, {
    HOME,
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    AWS_CONFIG_FILE: join(HOME, 'none'),
    AWS_SHARED_CREDENTIALS_FILE: join(HOME, 'none'),
    AWS_EC2_METADATA_DISABLED: 'true',
    NODE_NO_WARNINGS: '1',
  });
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(ROOT, 'bin', 'admin.ts'), 'deploy', 'check', ...args],
      { cwd: ROOT, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as Result;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The report's line for a finding: its mark and text. */
const line = (stdout: string, pattern: RegExp) =>
  stdout.split('\n').find((l) => pattern.test(l)) ?? `(no line matching ${pattern})`;

describe('npm run admin -- deploy check, against recorded AWS answers', () => {
  it('an account ready for a first deploy with its own domain: all ok, exit 0', async () => {
    const result = await deployCheck(ALL_CLEAR, '--region', 'eu-west-1', ...SENDER, ...OWN_DOMAIN);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Deploy check: stack FormService in eu-west-1');
    expect(result.stdout).not.toMatch(/BLOCKER|WARNING/);
    for (const area of ['Lambda', 'SES account', 'Sender', 'Own domain', 'Region']) {
      expect(result.stdout).toContain(`\n${area}\n`);
    }
    expect(line(result.stdout, /acmeforms\.net is verified/)).toContain('DKIM SUCCESS');
    expect(line(result.stdout, /certificate is ISSUED/)).toContain('us-east-1');
    expect(result.stdout).toMatch(/0 blockers, 0 warnings, \d+ ok/);
    // The certificate is read in its own Region; the rest in the stack's.
    expect(aws!.calls.find((c) => c.operation === 'acm:DescribeCertificate')).toMatchObject({
      subject: CERTIFICATE,
      signedRegion: 'us-east-1',
    });
    expect(aws!.calls.find((c) => c.operation === 'lambda:GetAccountSettings')?.signedRegion).toBe(
      'eu-west-1',
    );
    expect(aws!.unknown).toEqual([]);
  });

  it('a sandbox account is a warning saying who gets mail and how to leave it, exit 0', async () => {
    const result = await deployCheck(
      { ...ALL_CLEAR, sesAccount: { file: 'sesv2/account-sandbox.json' } },
      '--region',
      'eu-west-1',
      ...SENDER,
    );
    expect(result.code).toBe(0);
    const sandbox = line(result.stdout, /sandbox/);
    expect(sandbox).toMatch(/^ {2}WARNING/);
    expect(sandbox).toContain('only verified addresses receive mail');
    expect(sandbox).toContain('200 emails a day, 1 a second');
    expect(sandbox).toContain('Request production access');
    expect(result.stdout).toContain('0 blockers, 1 warning');
  });

  it('a quota of 10 with a reservation blocks with the numbers, and the quota is a warning, exit 1', async () => {
    const result = await deployCheck(
      { ...ALL_CLEAR, lambdaAccountSettings: { file: 'lambda/account-settings-new-account.json' } },
      '--region',
      'eu-west-1',
      ...SENDER,
      '-c',
      'submitReservedConcurrency=5',
    );
    expect(result.code).toBe(1);
    const reservation = line(result.stdout, /submitReservedConcurrency=5/);
    expect(reservation).toMatch(/^ {2}BLOCKER/);
    expect(reservation).toContain(
      "reserves 5 of the account's 10 unreserved concurrent executions, leaving 5",
    );
    expect(reservation).toContain('at least 10 unreserved');
    expect(reservation).toContain('Set -c submitReservedConcurrency=0');
    const quota = line(result.stdout, /quota is 10 concurrent executions/);
    expect(quota).toMatch(/^ {2}WARNING/);
    expect(quota).toContain('throttled');
    expect(quota).toContain('L-B99A9384');
  });

  it('an unverified sender domain blocks, naming its DKIM state and what to publish, exit 1', async () => {
    const result = await deployCheck(
      {
        ...ALL_CLEAR,
        identities: { 'acmeforms.net': { file: 'sesv2/identity-domain-pending.json' } },
      },
      '--region',
      'eu-west-1',
      ...SENDER,
    );
    expect(result.code).toBe(1);
    const sender = line(result.stdout, /not verified for sending/);
    expect(sender).toMatch(/^ {2}BLOCKER/);
    expect(sender).toContain('verification PENDING, DKIM PENDING');
    expect(sender).toContain('DKIM CNAME');
    expect(aws!.calls.filter((c) => c.operation === 'sesv2:GetEmailIdentity')).toHaveLength(2);
  });

  it('no sender set blocks, and no SES identity is read, exit 1', async () => {
    const result = await deployCheck(ALL_CLEAR, '--region', 'eu-west-1');
    expect(result.code).toBe(1);
    expect(line(result.stdout, /emailSenderAddress is not set/)).toMatch(/^ {2}BLOCKER/);
    expect(aws!.calls.some((c) => c.operation === 'sesv2:GetEmailIdentity')).toBe(false);
  });

  it('a hosted zone that does not exist blocks, saying how to find the id, exit 1', async () => {
    const result = await deployCheck(
      { ...ALL_CLEAR, zones: {} },
      '--region',
      'eu-west-1',
      ...SENDER,
      ...OWN_DOMAIN,
    );
    expect(result.code).toBe(1);
    const zone = line(result.stdout, /no such hosted zone/);
    expect(zone).toMatch(/^ {2}BLOCKER/);
    expect(zone).toContain(`hostedZoneId ${ZONE}`);
    expect(zone).toContain('list-hosted-zones-by-name --dns-name acmeforms.net');
  });

  it('a certificate in eu-west-1, pending, for another name: three blockers, read in eu-west-1, exit 1', async () => {
    const result = await deployCheck(
      ALL_CLEAR,
      '--region',
      'eu-west-1',
      ...SENDER,
      '-c',
      'domainName=forms.acmeforms.net',
      '-c',
      `certificateArn=${PENDING_ELSEWHERE}`,
    );
    expect(result.code).toBe(1);
    expect(line(result.stdout, /certificateArn is in eu-west-1/)).toContain(
      'CloudFront takes certificates of us-east-1 only',
    );
    expect(line(result.stdout, /PENDING_VALIDATION, not ISSUED/)).toMatch(/^ {2}BLOCKER/);
    expect(line(result.stdout, /names www\.acmeforms\.net, not forms\.acmeforms\.net/)).toMatch(
      /^ {2}BLOCKER/,
    );
    expect(aws!.calls.find((c) => c.operation === 'acm:DescribeCertificate')?.signedRegion).toBe(
      'eu-west-1',
    );
  });

  it('a Region without EventBridge Scheduler blocks, naming what needs it, exit 1', async () => {
    const result = await deployCheck(ALL_CLEAR, '--region', 'xx-test-1', ...SENDER);
    expect(result.code).toBe(1);
    const scheduler = line(result.stdout, /does not offer EventBridge Scheduler/);
    expect(scheduler).toMatch(/^ {2}BLOCKER/);
    expect(scheduler).toContain("forms' scheduled closing");
    expect(line(result.stdout, /xx-test-1 offers/)).toContain('API Gateway, Lambda, DynamoDB');
    // xx-test-1 is not a Region the catalog answers in: asked in us-east-1.
    expect(aws!.calls.find((c) => c.operation === 'ssm:GetParameters')?.signedRegion).toBe(
      'us-east-1',
    );
  });

  it('--json lists every finding with its area, check and severity, and the summary', async () => {
    const result = await deployCheck(
      { ...ALL_CLEAR, sesAccount: { file: 'sesv2/account-sandbox.json' } },
      '--region',
      'eu-west-1',
      '--json',
      ...SENDER,
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      region: string;
      findings: { area: string; check: string; severity: string; text: string; action: string }[];
      summary: { blocker: number; warning: number; ok: number };
    };
    expect(report.region).toBe('eu-west-1');
    expect(report.findings.find((f) => f.check === 'ses.production')).toMatchObject({
      area: 'SES account',
      severity: 'warning',
    });
    expect(report.summary).toEqual({
      blocker: 0,
      warning: 1,
      ok: report.findings.length - 1,
    });
  });

  it('the Region comes from AWS_REGION without --region, as cdk deploy takes it', async () => {
    const result = await deployCheckWith({ AWS_REGION: 'eu-west-1' }, ALL_CLEAR, ...SENDER);
    expect(result.stdout).toContain('Deploy check: stack FormService in eu-west-1');
    expect(aws!.calls.find((c) => c.operation === 'sesv2:GetAccount')?.signedRegion).toBe(
      'eu-west-1',
    );
  });

  it('no credentials is one error, exit 1, before any AWS call', async () => {
    const result = await deployCheckWith(
      { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined },
      ALL_CLEAR,
      '--region',
      'eu-west-1',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no AWS credentials');
    expect(result.stdout).toBe('');
    expect(aws!.calls).toEqual([]);
  });

  it('bad arguments, or no Region at all, print usage and exit 2 before any AWS call', async () => {
    const noRegion = await deployCheck(ALL_CLEAR);
    expect(noRegion.code).toBe(2);
    expect(noRegion.stderr).toContain('no Region: pass --region or set AWS_REGION');
    const bad = await deployCheck(ALL_CLEAR, '--region', 'Ireland');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--region must be a Region code');
    const reserved = await deployCheck(ALL_CLEAR, '--region', 'eu-west-1', '-c', 'aws:x=1');
    expect(reserved.code).toBe(2);
    expect(aws!.calls).toEqual([]);
  });
});
