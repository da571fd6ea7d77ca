import { certificateRegion } from '#lib/own-domain.ts';
import type { AwsReads } from './aws-reads.ts';
import { type Finding, finding } from './findings.ts';
import { concurrencyFindings } from './lambda.ts';
import { certificateFindings, domainPlanFindings, hostedZoneFindings } from './own-domain.ts';
import {
  catalogNames,
  catalogRegionFor,
  neededServices,
  regionServiceFindings,
  tenantFindings,
} from './region.ts';
import { identitiesToRead, senderFindings } from './sender.ts';
import { sesAccountFindings } from './ses-account.ts';
import { type DeploySettings, readDeploySettings } from './settings.ts';

/**
 * `npm run admin -- deploy check`: the settings `cdk deploy` would use, read
 * against the account and Region with read-only calls, as findings
 * (docs/deploying.md#before-the-first-deploy). The calls go out together;
 * the findings come out in a fixed order.
 */
export async function runDeployCheck(
  context: Record<string, unknown>,
  reads: AwsReads,
): Promise<{ settings: DeploySettings; findings: Finding[] }> {
  const { settings, findings: settingFindings } = readDeploySettings(context);
  const { region } = reads;
  const identities = identitiesToRead(settings);
  const services = neededServices(settings);
  const certificateArn = settings.certificateArn;
  const certificateAt = certificateArn ? certificateRegion(certificateArn) : undefined;

  const [lambda, account, identityAnswers, zone, certificate, catalog, tenants] = await Promise.all(
    [
      reads.lambdaAccountSettings(),
      reads.sesAccount(),
      Promise.all(identities.map(async (name) => [name, await reads.emailIdentity(name)] as const)),
      settings.hostedZoneId ? reads.hostedZone(settings.hostedZoneId) : undefined,
      certificateAt ? reads.certificate(certificateArn, certificateAt) : undefined,
      reads.catalog(catalogNames(region, services), catalogRegionFor(region)),
      settings.sesTenants ? reads.sesTenants() : undefined,
    ],
  );

  const domain: Finding[] = [];
  if (zone) domain.push(...hostedZoneFindings(settings, zone));
  if (certificate) domain.push(...certificateFindings(settings, certificate));
  if (settings.domainName && !settings.certificateArn && settings.hostedZoneId) {
    domain.push(
      finding(
        'Own domain',
        'domain.certificate',
        'ok',
        `The stack requests the certificate for ${settings.domainName} and validates it in the hosted zone.`,
      ),
    );
  }
  if (!settings.domainName && !settings.emailDomain) {
    domain.push(
      finding(
        'Own domain',
        'domain.none',
        'ok',
        'No own domain (domainName, emailDomain unset): the API answers on its execute-api address.',
      ),
    );
  }

  return {
    settings,
    findings: [
      ...settingFindings,
      ...domainPlanFindings(settings, region),
      ...concurrencyFindings(settings.submitReservedConcurrency, lambda),
      ...sesAccountFindings(account),
      ...senderFindings(settings, Object.fromEntries(identityAnswers), region),
      ...domain,
      ...regionServiceFindings(region, services, catalog),
      ...tenantFindings(settings, region, tenants),
    ],
  };
}
