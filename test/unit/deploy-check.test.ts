import type { CertificateDetail, CertificateStatus } from '@aws-sdk/client-acm';
import { describe, expect, it } from 'vitest';
import { parseAssignments } from '#lib/admin/deploy-check/context-files.ts';
import {
  type Answer,
  exitCodeOf,
  type Finding,
  formatFindings,
  summarize,
} from '#lib/admin/deploy-check/findings.ts';
import { concurrencyFindings, unreservedFloor } from '#lib/admin/deploy-check/lambda.ts';
import {
  certificateCovers,
  certificateFindings,
  domainPlanFindings,
  hostedZoneFindings,
} from '#lib/admin/deploy-check/own-domain.ts';
import {
  CATALOG,
  catalogNames,
  catalogRegionFor,
  neededServices,
  regionServiceFindings,
  tenantFindings,
} from '#lib/admin/deploy-check/region.ts';
import { type Identity, identitiesToRead, senderFindings } from '#lib/admin/deploy-check/sender.ts';
import { sesAccountFindings } from '#lib/admin/deploy-check/ses-account.ts';
import {
  type DeploySettings,
  mergeContext,
  readDeploySettings,
} from '#lib/admin/deploy-check/settings.ts';
import { STACK_SETTINGS } from '#lib/settings.ts';
import { SETTINGS as FUNCTION_SETTINGS } from '#settings';

/**
 * The deploy check's pure part: AWS's answers (shaped as the SDK returns
 * them) and the settings in, findings out. The command itself, with its real
 * SDK clients against recorded answers: deploy-check-command.test.ts.
 */

const ok = <T>(value: T): Answer<T> => ({ ok: true, value });
const failed = (name: string, status?: number): Answer<never> => ({
  ok: false,
  error: { name, message: `${name} (recorded)`, status },
});

const only = (findings: Finding[], check: string) => {
  const found = findings.filter((f) => f.check === check);
  if (found.length !== 1)
    throw new Error(`${found.length} findings ${check}: ${JSON.stringify(findings)}`);
  return found[0]!;
};

/** The stack's own default, wherever the setting is declared (it may move between the two tables). */
const declaredDefault = (key: string) =>
  (
    ({ ...FUNCTION_SETTINGS, ...STACK_SETTINGS }) as Record<
      string,
      { default: unknown } | undefined
    >
  )[key]?.default;

const SETTINGS: DeploySettings = {
  stackName: 'FormService',
  submitReservedConcurrency: 0,
  emailSenderAddress: 'forms@acmeforms.net',
  sesIdentity: '',
  emailDomain: '',
  sesTenants: true,
  domainName: '',
  hostedZoneId: '',
  hostedZoneName: '',
  certificateArn: '',
  baseUrl: '',
  malwareScanning: 'off',
};

describe('settings as cdk deploy reads them', () => {
  it('-c beats cdk.json, which beats cdk.context.json, which beats ~/.cdk.json', () => {
    const context = mergeContext({
      commandLine: { a: 'cli' },
      cdkJson: { a: 'json', b: 'json' },
      projectContext: { a: 'project', b: 'project', c: 'project' },
      userContext: { a: 'user', b: 'user', c: 'user', d: 'user' },
    });
    expect(context).toEqual({ a: 'cli', b: 'json', c: 'project', d: 'user' });
  });

  it('an empty context reads the definitions’ defaults, and no sender', () => {
    const { settings, findings } = readDeploySettings({});
    expect(findings).toEqual([]);
    expect(settings.emailSenderAddress).toBeNull();
    expect(settings.submitReservedConcurrency).toBe(
      declaredDefault('submitReservedConcurrency') ?? 0,
    );
    expect(settings.sesTenants).toBe(true);
    expect(settings.stackName).toBe('FormService');
    // Declared in lambdas/settings.ts: scanning is on unless the deployer turns it off.
    expect(settings.malwareScanning).toBe(declaredDefault('malwareScanning'));
    expect(settings.malwareScanning).toBe('guardduty');
  });

  it('values are parsed from text by their own definitions, as -c hands them over', () => {
    const { settings } = readDeploySettings({
      submitReservedConcurrency: '25',
      sesTenants: 'false',
      emailSenderAddress: 'forms@acmeforms.net',
      domainName: 'Forms.AcmeForms.net.',
    });
    expect(settings).toMatchObject({
      submitReservedConcurrency: 25,
      sesTenants: false,
      emailSenderAddress: 'forms@acmeforms.net',
      domainName: 'forms.acmeforms.net',
    });
  });

  it('a value the synth would refuse is a Settings blocker naming the key; the default stands in', () => {
    const { settings, findings } = readDeploySettings({ submitReservedConcurrency: 'lots' });
    expect(only(findings, 'settings.submitReservedConcurrency')).toMatchObject({
      area: 'Settings',
      severity: 'blocker',
    });
    expect(findings[0]!.text).toContain('CDK context "submitReservedConcurrency"');
    expect(settings.submitReservedConcurrency).toBe(
      declaredDefault('submitReservedConcurrency') ?? 0,
    );
  });

  it('malwareScanning is read by the stack’s own name and parser: off is off, a typo a blocker', () => {
    expect(readDeploySettings({ malwareScanning: 'off' }).settings.malwareScanning).toBe('off');
    const { settings, findings } = readDeploySettings({ malwareScanning: 'clamav' });
    expect(only(findings, 'settings.malwareScanning').text).toContain('guardduty, off');
    expect(settings.malwareScanning).toBe('guardduty');
    // So the Region check asks for GuardDuty exactly when the stack would build the plan.
    expect(neededServices(settings).map((s) => s.code)).toContain('guardduty');
  });

  it('-c is split at its first =, and aws: keys are refused as the CDK CLI refuses them', () => {
    expect(parseAssignments(['a=b=c', 'e='])).toEqual({ a: 'b=c', e: '' });
    expect(() => parseAssignments(['novalue'])).toThrow('key=value');
    expect(() => parseAssignments(['aws:cdk:bundling-stacks=[]'])).toThrow('reserved');
  });

  it('domain settings the synth refuses together are one Settings blocker with its sentence', () => {
    const [planned] = domainPlanFindings({ ...SETTINGS, domainName: 'forms.acmeforms.net' });
    expect(planned).toMatchObject({ check: 'settings.domains', severity: 'blocker' });
    expect(planned!.text).toContain('needs hostedZoneId and hostedZoneName');
    expect(domainPlanFindings(SETTINGS)).toEqual([]);
  });
});

const account = (quota: number, unreserved = quota) =>
  ok({ AccountLimit: { ConcurrentExecutions: quota, UnreservedConcurrentExecutions: unreserved } });

describe('Lambda concurrency', () => {
  it('Lambda keeps 100 unreserved, or the whole quota below 100', () => {
    expect(unreservedFloor(1000)).toBe(100);
    expect(unreservedFloor(50)).toBe(50);
    expect(unreservedFloor(10)).toBe(10);
  });

  it('any reservation on a quota of 10 blocks, with the numbers and "set 0"', () => {
    const reservation = only(concurrencyFindings(1, account(10)), 'lambda.reservation');
    expect(reservation.severity).toBe('blocker');
    expect(reservation.text).toContain("reserves 1 of the account's 10 unreserved");
    expect(reservation.text).toContain('at least 10 unreserved');
    expect(reservation.action).toContain('no room to reserve any');
    expect(reservation.action).toContain('submitReservedConcurrency=0');
  });

  it('a reservation is refused past unreserved minus 100 and fits at it', () => {
    const refused = only(concurrencyFindings(901, account(1000)), 'lambda.reservation');
    expect(refused.severity).toBe('blocker');
    expect(refused.action).toContain('at most 900');
    expect(refused.action).toContain('L-B99A9384');
    const fits = only(concurrencyFindings(900, account(1000)), 'lambda.reservation');
    expect(fits.severity).toBe('ok');
    expect(fits.text).toContain('100 of 1,000 unreserved');
  });

  it('what other functions already reserved counts: 1,000 quota with 150 unreserved takes at most 50', () => {
    const refused = only(concurrencyFindings(100, account(1000, 150)), 'lambda.reservation');
    expect(refused.severity).toBe('blocker');
    expect(refused.action).toContain('at most 50');
  });

  it('no reservation is ok, and a quota below 1,000 is a warning on throttling with the way to ask for more', () => {
    const findings = concurrencyFindings(0, account(10));
    expect(only(findings, 'lambda.reservation').severity).toBe('ok');
    const quota = only(findings, 'lambda.quota');
    expect(quota.severity).toBe('warning');
    expect(quota.text).toContain('429');
    expect(quota.action).toContain('request-service-quota-increase');
    expect(only(concurrencyFindings(0, account(1000)), 'lambda.quota').severity).toBe('ok');
  });

  it('a refused GetAccountSettings is a warning naming the permission, never a blocker', () => {
    const [finding] = concurrencyFindings(100, failed('AccessDeniedException', 403));
    expect(finding).toMatchObject({ check: 'lambda.account', severity: 'warning' });
    expect(finding!.action).toContain('lambda:GetAccountSettings');
  });
});

const sesAccount = (overrides: Record<string, unknown>) =>
  ok({
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    EnforcementStatus: 'HEALTHY',
    SendQuota: { Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 0 },
    ...overrides,
  });

describe('SES account', () => {
  it('production access is ok with the sending quota', () => {
    const production = only(sesAccountFindings(sesAccount({})), 'ses.production');
    expect(production.severity).toBe('ok');
    expect(production.text).toContain('50,000 emails a day, 14 a second');
  });

  it('the sandbox is a warning: only verified recipients, and how to ask for production access', () => {
    const sandbox = only(
      sesAccountFindings(sesAccount({ ProductionAccessEnabled: false })),
      'ses.production',
    );
    expect(sandbox.severity).toBe('warning');
    expect(sandbox.text).toContain('only verified addresses receive mail');
    expect(sandbox.action).toContain('put-account-details --production-access-enabled');
  });

  it('a production request under review says so and to wait', () => {
    const pending = only(
      sesAccountFindings(
        sesAccount({
          ProductionAccessEnabled: false,
          Details: { ReviewDetails: { Status: 'PENDING', CaseId: '42' } },
        }),
      ),
      'ses.production',
    );
    expect(pending.text).toContain('request is PENDING (case 42)');
    expect(pending.action).toMatch(/^Wait for the review/);
  });

  it.each([
    [{ SendingEnabled: false }, 'put-account-sending-attributes --sending-enabled'],
    [{ EnforcementStatus: 'SHUTDOWN' }, 'AWS Support'],
  ])('sending disabled or paused (%j) blocks', (overrides, action) => {
    const sending = only(sesAccountFindings(sesAccount(overrides)), 'ses.sending');
    expect(sending.severity).toBe('blocker');
    expect(sending.action).toContain(action);
  });

  it('probation is a warning', () => {
    expect(
      only(sesAccountFindings(sesAccount({ EnforcementStatus: 'PROBATION' })), 'ses.sending')
        .severity,
    ).toBe('warning');
  });
});

const identity = (overrides: Partial<Identity> = {}): Answer<Identity> =>
  ok({
    IdentityType: 'DOMAIN',
    VerifiedForSendingStatus: true,
    VerificationStatus: 'SUCCESS',
    DkimAttributes: { Status: 'SUCCESS' },
    Tags: [],
    ...overrides,
  });
const NOT_FOUND = failed('NotFoundException', 404);

describe('the sender', () => {
  it('reads the domain the stack grants sending on, and the address beside it', () => {
    expect(identitiesToRead(SETTINGS)).toEqual(['acmeforms.net', 'forms@acmeforms.net']);
    expect(identitiesToRead({ ...SETTINGS, sesIdentity: 'forms@acmeforms.net' })).toEqual([
      'forms@acmeforms.net',
    ]);
    expect(identitiesToRead({ ...SETTINGS, emailDomain: 'mail.acmeforms.net' })).toEqual([
      'mail.acmeforms.net',
    ]);
    expect(identitiesToRead({ ...SETTINGS, emailSenderAddress: null })).toEqual([]);
  });

  it('no sender set blocks: the stack refuses to synth without one', () => {
    const [finding] = senderFindings({ ...SETTINGS, emailSenderAddress: null }, {}, 'eu-west-1');
    expect(finding).toMatchObject({ check: 'sender.address', severity: 'blocker' });
    expect(finding!.text).toContain('refuses to synth');
    expect(finding!.action).toContain('-c emailSenderAddress=');
  });

  it.each(['forms@example.com', 'forms@acme.test', 'forms@mail.example'])(
    'a sender on a reserved domain (%s) blocks: nobody can verify it',
    (address) => {
      const [finding] = senderFindings(
        { ...SETTINGS, emailSenderAddress: address },
        {},
        'eu-west-1',
      );
      expect(finding).toMatchObject({ check: 'sender.address', severity: 'blocker' });
    },
  );

  it('a verified domain is ok, with its DKIM state', () => {
    const [finding] = senderFindings(SETTINGS, { 'acmeforms.net': identity() }, 'eu-west-1');
    expect(finding).toMatchObject({ check: 'sender.identity', severity: 'ok' });
    expect(finding!.text).toContain('verified for sending in eu-west-1 (DKIM SUCCESS)');
  });

  it('an identity not yet verified blocks with its state and the records to publish', () => {
    const [finding] = senderFindings(
      SETTINGS,
      {
        'acmeforms.net': identity({
          VerifiedForSendingStatus: false,
          VerificationStatus: 'PENDING',
          DkimAttributes: { Status: 'PENDING' },
        }),
      },
      'eu-west-1',
    );
    expect(finding!.severity).toBe('blocker');
    expect(finding!.text).toContain('verification PENDING, DKIM PENDING');
    expect(finding!.action).toContain('DKIM CNAME');
  });

  it('an unverified address says to open the link SES mailed', () => {
    const [finding] = senderFindings(
      { ...SETTINGS, sesIdentity: 'forms@acmeforms.net' },
      {
        'forms@acmeforms.net': identity({
          IdentityType: 'EMAIL_ADDRESS',
          VerifiedForSendingStatus: false,
          VerificationStatus: 'PENDING',
        }),
      },
      'eu-west-1',
    );
    expect(finding!.severity).toBe('blocker');
    expect(finding!.action).toContain('Open the link SES mailed to forms@acmeforms.net');
  });

  it('no identity at all blocks, saying how to create one or let the stack do it', () => {
    const [finding] = senderFindings(
      SETTINGS,
      { 'acmeforms.net': NOT_FOUND, 'forms@acmeforms.net': NOT_FOUND },
      'eu-west-1',
    );
    expect(finding!.severity).toBe('blocker');
    expect(finding!.text).toContain('acmeforms.net is not an SES identity in eu-west-1');
    expect(finding!.action).toContain('create-email-identity --email-identity acmeforms.net');
    expect(finding!.action).toContain('-c emailDomain=acmeforms.net');
  });

  it('a verified address without its domain blocks: the stack grants the domain unless sesIdentity names the address', () => {
    const [finding] = senderFindings(
      SETTINGS,
      {
        'acmeforms.net': NOT_FOUND,
        'forms@acmeforms.net': identity({ IdentityType: 'EMAIL_ADDRESS' }),
      },
      'eu-west-1',
    );
    expect(finding!.severity).toBe('blocker');
    expect(finding!.action).toMatch(/^Set -c sesIdentity=forms@acmeforms\.net/);
  });

  it('a sender outside sesIdentity blocks', () => {
    const findings = senderFindings(
      { ...SETTINGS, sesIdentity: 'other.net' },
      { 'other.net': identity() },
      'eu-west-1',
    );
    expect(only(findings, 'sender.identity-match').severity).toBe('blocker');
    expect(
      senderFindings(
        { ...SETTINGS, sesIdentity: 'acmeforms.net' },
        { 'acmeforms.net': identity() },
        'eu-west-1',
      ).some((f) => f.check === 'sender.identity-match'),
    ).toBe(false);
  });

  describe('with emailDomain (the stack creates the identity)', () => {
    const settings = { ...SETTINGS, emailDomain: 'acmeforms.net' };

    it('no identity of that name yet is ok: the stack creates it', () => {
      const [finding] = senderFindings(settings, { 'acmeforms.net': NOT_FOUND }, 'eu-west-1');
      expect(finding).toMatchObject({ check: 'sender.identity', severity: 'ok' });
      expect(finding!.text).toContain('The stack creates the SES identity acmeforms.net');
    });

    it('an identity made outside the stack blocks: CloudFormation cannot create it again', () => {
      const [finding] = senderFindings(settings, { 'acmeforms.net': identity() }, 'eu-west-1');
      expect(finding).toMatchObject({ check: 'sender.identity-exists', severity: 'blocker' });
      expect(finding!.text).toContain('already exists in eu-west-1 (verified)');
      expect(finding!.action).toContain('set -c sesIdentity=acmeforms.net');
      expect(finding!.action).toContain('delete-email-identity');
    });

    it('the identity this stack created on an earlier deploy is ok', () => {
      const ours = identity({
        Tags: [{ Key: 'aws:cloudformation:stack-name', Value: 'FormService' }],
      });
      const [finding] = senderFindings(settings, { 'acmeforms.net': ours }, 'eu-west-1');
      expect(finding).toMatchObject({ check: 'sender.identity', severity: 'ok' });
      const another = identity({
        Tags: [{ Key: 'aws:cloudformation:stack-name', Value: 'OtherStack' }],
      });
      expect(senderFindings(settings, { 'acmeforms.net': another }, 'eu-west-1')[0]!.severity).toBe(
        'blocker',
      );
    });
  });
});

const ZONE_SETTINGS = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'acmeforms.net' };
const zone = (name: string, privateZone = false) =>
  ok({
    HostedZone: {
      Id: '/hostedzone/Z0123456789ABCDEFGHIJ',
      Name: name,
      CallerReference: 'x',
      Config: { PrivateZone: privateZone },
    },
  });

describe('the hosted zone', () => {
  it('a public zone of that name is ok', () => {
    expect(hostedZoneFindings(ZONE_SETTINGS, zone('acmeforms.net.'))).toEqual([
      expect.objectContaining({ check: 'domain.zone', severity: 'ok' }),
    ]);
  });

  it('no such zone blocks, saying how to find the id', () => {
    const [finding] = hostedZoneFindings(ZONE_SETTINGS, failed('NoSuchHostedZone', 404));
    expect(finding!.severity).toBe('blocker');
    expect(finding!.action).toContain('list-hosted-zones-by-name --dns-name acmeforms.net');
  });

  it('a private zone blocks', () => {
    const findings = hostedZoneFindings(ZONE_SETTINGS, zone('acmeforms.net.', true));
    expect(only(findings, 'domain.zone-public').severity).toBe('blocker');
  });

  it('a zone of another name blocks, naming both', () => {
    const finding = only(hostedZoneFindings(ZONE_SETTINGS, zone('other.net.')), 'domain.zone-name');
    expect(finding.severity).toBe('blocker');
    expect(finding.text).toContain('is other.net, but hostedZoneName says acmeforms.net');
  });
});

describe('the certificate (edge domain: us-east-1)', () => {
  const ARN = 'arn:aws:acm:us-east-1:111122223333:certificate/12345678-1234-1234-1234-123456789012';
  const settings = { certificateArn: ARN, domainName: 'forms.acmeforms.net' };
  const certificate = (overrides: Partial<CertificateDetail> = {}) =>
    ok<{ Certificate: CertificateDetail }>({
      Certificate: {
        CertificateArn: ARN,
        DomainName: 'forms.acmeforms.net',
        SubjectAlternativeNames: ['forms.acmeforms.net'],
        Status: 'ISSUED',
        ...overrides,
      },
    });

  it.each([
    ['forms.acmeforms.net', 'forms.acmeforms.net', true],
    ['*.acmeforms.net', 'forms.acmeforms.net', true],
    ['*.AcmeForms.net', 'forms.acmeforms.net', true],
    ['*.acmeforms.net', 'acmeforms.net', false],
    ['*.acmeforms.net', 'a.forms.acmeforms.net', false],
    ['www.acmeforms.net', 'forms.acmeforms.net', false],
  ])('%s covers %s: %s', (name, host, covers) => {
    expect(certificateCovers(name, host)).toBe(covers);
  });

  it('issued in us-east-1 for the name (or a SAN) is ok', () => {
    expect(certificateFindings(settings, certificate())).toEqual([
      expect.objectContaining({ check: 'domain.certificate', severity: 'ok' }),
    ]);
    expect(
      certificateFindings(
        settings,
        certificate({ DomainName: 'acmeforms.net', SubjectAlternativeNames: ['*.acmeforms.net'] }),
      )[0]!.severity,
    ).toBe('ok');
  });

  it('a certificate in another Region blocks, as the synth would: CloudFront takes us-east-1 only', () => {
    const elsewhere = ARN.replace('us-east-1', 'eu-west-1');
    const [planned] = domainPlanFindings({ ...SETTINGS, ...settings, certificateArn: elsewhere });
    expect(planned?.severity).toBe('blocker');
    expect(planned?.text).toContain('certificateArn is in eu-west-1');
    expect(planned?.text).toContain('CloudFront takes certificates of us-east-1 only');
  });

  it('a zone and no certificate blocks outside us-east-1: the stack would request it in its own Region', () => {
    const zoned = {
      ...SETTINGS,
      domainName: 'forms.acmeforms.net',
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
      hostedZoneName: 'acmeforms.net',
    };
    expect(domainPlanFindings(zoned, 'us-east-1')).toEqual([]);
    expect(domainPlanFindings(zoned, 'eu-west-1')[0]?.text).toContain(
      'would request the certificate in eu-west-1',
    );
  });

  it.each<CertificateStatus>(['PENDING_VALIDATION', 'EXPIRED', 'FAILED'])(
    'a %s certificate blocks',
    (status) => {
      const finding = only(
        certificateFindings(settings, certificate({ Status: status })),
        'domain.certificate-status',
      );
      expect(finding.severity).toBe('blocker');
      expect(finding.text).toContain(`is ${status}, not ISSUED`);
    },
  );

  it('a certificate for other names blocks, listing them', () => {
    const finding = only(
      certificateFindings(
        settings,
        certificate({
          DomainName: 'www.acmeforms.net',
          SubjectAlternativeNames: ['www.acmeforms.net'],
        }),
      ),
      'domain.certificate-name',
    );
    expect(finding.severity).toBe('blocker');
    expect(finding.text).toContain('names www.acmeforms.net, not forms.acmeforms.net');
  });

  it('no such certificate blocks', () => {
    const finding = only(
      certificateFindings(settings, failed('ResourceNotFoundException', 400)),
      'domain.certificate',
    );
    expect(finding.severity).toBe('blocker');
  });
});

describe('the Region', () => {
  const catalog = (region: string, codes: string[], known = codes) =>
    ok({
      Parameters: [
        ...known.map((code) => ({ Name: `${CATALOG}/services/${code}` })),
        ...codes.map((code) => ({ Name: `${CATALOG}/regions/${region}/services/${code}` })),
      ],
    });
  const ALL = ['apigateway', 'lambda', 'dynamodb', 'sqs', 'ses', 'scheduler'];

  it('asks the catalog for each needed service and its entry under the Region', () => {
    const names = catalogNames('eu-west-1', neededServices(SETTINGS));
    expect(names).toHaveLength(12);
    expect(names).toContain(`${CATALOG}/regions/eu-west-1/services/scheduler`);
    expect(neededServices({ malwareScanning: 'guardduty' }).map((s) => s.code)).toContain(
      'guardduty',
    );
    expect(neededServices({ malwareScanning: 'off' }).map((s) => s.code)).not.toContain(
      'guardduty',
    );
  });

  it('the catalog is asked in a Region that answers it', () => {
    expect(catalogRegionFor('eu-west-1')).toBe('eu-west-1');
    expect(catalogRegionFor('eu-south-2')).toBe('us-east-1');
  });

  it('every service offered is one ok', () => {
    const findings = regionServiceFindings(
      'eu-west-1',
      neededServices(SETTINGS),
      catalog('eu-west-1', ALL),
    );
    expect(findings).toEqual([
      expect.objectContaining({ check: 'region.services', severity: 'ok' }),
    ]);
  });

  it('a service the Region lacks blocks, naming what needs it', () => {
    const findings = regionServiceFindings(
      'eu-west-1',
      neededServices({ malwareScanning: 'guardduty' }),
      catalog('eu-west-1', ALL, [...ALL, 'guardduty']),
    );
    const guardduty = only(findings, 'region.guardduty');
    expect(guardduty.severity).toBe('blocker');
    expect(guardduty.text).toContain('malware scanning');
    expect(guardduty.action).toContain('-c malwareScanning=off');
  });

  it('a service the catalog does not list at all is unchecked (warning), not missing', () => {
    const findings = regionServiceFindings(
      'eu-west-1',
      neededServices(SETTINGS),
      catalog(
        'eu-west-1',
        ALL.filter((c) => c !== 'ses'),
        ALL.filter((c) => c !== 'ses'),
      ),
    );
    expect(only(findings, 'region.ses').severity).toBe('warning');
  });

  it('SES tenants: answering is ok, an unknown operation blocks, a refusal is a warning, off is ok', () => {
    expect(tenantFindings(SETTINGS, 'eu-west-1', ok({ Tenants: [] }))[0]!.severity).toBe('ok');
    const unknown = tenantFindings(SETTINGS, 'eu-west-1', failed('UnknownOperationException', 404));
    expect(unknown[0]).toMatchObject({ severity: 'blocker' });
    expect(unknown[0]!.action).toContain('-c sesTenants=false');
    expect(
      tenantFindings(SETTINGS, 'eu-west-1', failed('AccessDeniedException', 403))[0]!.severity,
    ).toBe('warning');
    expect(tenantFindings({ sesTenants: false }, 'eu-west-1', undefined)[0]!.severity).toBe('ok');
  });
});

describe('the report', () => {
  const findings: Finding[] = [
    { area: 'Region', check: 'r', severity: 'ok', text: 'Region fine.', action: '' },
    { area: 'Lambda', check: 'l', severity: 'blocker', text: 'Too much.', action: 'Set less.' },
    { area: 'Lambda', check: 'q', severity: 'warning', text: 'Low.', action: 'Ask.' },
  ];

  it('groups lines by area in a fixed order, with the action after an arrow, then the summary', () => {
    const text = formatFindings(findings, 'Deploy check');
    expect(text).toBe(
      [
        'Deploy check',
        '',
        'Lambda',
        '  BLOCKER  Too much. → Set less.',
        '  WARNING  Low. → Ask.',
        '',
        'Region',
        '  ok       Region fine.',
        '',
        '1 blocker, 1 warning, 1 ok: the first cdk deploy would fail or send no mail; fix the blockers first.',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 on a blocker only', () => {
    expect(summarize(findings)).toEqual({ blocker: 1, warning: 1, ok: 1 });
    expect(exitCodeOf(findings)).toBe(1);
    expect(exitCodeOf(findings.filter((f) => f.severity !== 'blocker'))).toBe(0);
  });
});
