import type { ListTenantsCommandOutput } from '@aws-sdk/client-sesv2';
import type { GetParametersCommandOutput } from '@aws-sdk/client-ssm';
import { type Answer, couldNotCheck, type Finding, finding } from './findings.ts';
import type { DeploySettings } from './settings.ts';

/**
 * Whether the Region offers what the stack needs, from AWS's own catalog: the
 * public Systems Manager parameters under `/aws/service/global-infrastructure`
 * (docs: "Calling public parameters for AWS services, Regions, endpoints…").
 * `…/services/<code>` exists for every service AWS lists, and
 * `…/regions/<region>/services/<code>` for each Region that offers it, so one
 * GetParameters call per ten names answers every service at once:
 * InvalidParameters names what does not exist. A service the catalog does not
 * list at all (a code it spells otherwise) is reported as unchecked, never as
 * missing. A probe call per service would need each service's client and
 * permission, and an AccessDenied would say nothing about the Region.
 */
export const CATALOG = '/aws/service/global-infrastructure';

/**
 * The catalog answers only in some Regions (the same docs list them); any of
 * them answers for every Region.
 */
export const CATALOG_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ap-east-1',
  'ap-south-1',
  'ap-northeast-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-northeast-1',
  'ca-central-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'sa-east-1',
];

export const catalogRegionFor = (region: string) =>
  CATALOG_REGIONS.includes(region) ? region : 'us-east-1';

interface NeededService {
  /** The service's code in the catalog. */
  code: string;
  name: string;
  /** Why the stack needs it. */
  for: string;
}

/** What the chosen settings need from the Region. */
export function neededServices(settings: Pick<DeploySettings, 'malwareScanning'>): NeededService[] {
  const services: NeededService[] = [
    { code: 'apigateway', name: 'API Gateway', for: 'the API' },
    { code: 'lambda', name: 'Lambda', for: 'every route and worker' },
    { code: 'dynamodb', name: 'DynamoDB', for: 'the table and its stream' },
    { code: 'sqs', name: 'SQS', for: 'the delivery queues' },
    { code: 'ses', name: 'SES', for: 'email (SES v2)' },
    { code: 'scheduler', name: 'EventBridge Scheduler', for: "forms' scheduled closing" },
  ];
  if (settings.malwareScanning !== 'off') {
    services.push({
      code: 'guardduty',
      name: 'GuardDuty',
      for: 'malware scanning of uploads (malwareScanning)',
    });
  }
  return services;
}

/** The parameter names to read: each service's entry, and its entry under the Region. */
export function catalogNames(region: string, services: readonly NeededService[]): string[] {
  return services.flatMap((s) => [
    `${CATALOG}/services/${s.code}`,
    `${CATALOG}/regions/${region}/services/${s.code}`,
  ]);
}

type Catalog = Pick<GetParametersCommandOutput, 'Parameters' | 'InvalidParameters'>;

export function regionServiceFindings(
  region: string,
  services: readonly NeededService[],
  answer: Answer<Catalog>,
): Finding[] {
  if (!answer.ok) {
    return [
      couldNotCheck(
        'Region',
        'region.services',
        `which services ${region} offers`,
        answer.error,
        'ssm:GetParameters on arn:aws:ssm:*::parameter/aws/service/global-infrastructure/*',
      ),
    ];
  }
  const present = new Set((answer.value.Parameters ?? []).map((p) => p.Name));
  const offered: string[] = [];
  const findings: Finding[] = [];
  for (const service of services) {
    if (!present.has(`${CATALOG}/services/${service.code}`)) {
      findings.push(
        finding(
          'Region',
          `region.${service.code}`,
          'warning',
          `AWS's service catalog has no entry "${service.code}" (${service.name}), so whether ${region} offers it was not checked.`,
          `Check ${service.name} in AWS's list of services by Region (https://aws.amazon.com/about-aws/global-infrastructure/regional-product-services/).`,
        ),
      );
    } else if (!present.has(`${CATALOG}/regions/${region}/services/${service.code}`)) {
      findings.push(
        finding(
          'Region',
          `region.${service.code}`,
          'blocker',
          `${region} does not offer ${service.name}, which the stack needs for ${service.for}.`,
          service.code === 'guardduty'
            ? 'Deploy with -c malwareScanning=off, or to a Region that offers GuardDuty.'
            : `Deploy to a Region that offers every service the stack uses (e.g. us-east-1, eu-west-1): set AWS_REGION or --region.`,
        ),
      );
    } else {
      offered.push(service.name);
    }
  }
  if (offered.length > 0) {
    findings.unshift(
      finding('Region', 'region.services', 'ok', `${region} offers ${offered.join(', ')}.`),
    );
  }
  return findings;
}

type Tenants = Pick<ListTenantsCommandOutput, 'Tenants'>;

/**
 * SES tenants (`sesTenants`, on by default) are a part of SES v2 the catalog
 * does not list apart: ListTenants, read-only, is asked instead. An operation
 * SES does not know in this Region answers 404 or UnknownOperationException.
 */
export function tenantFindings(
  settings: Pick<DeploySettings, 'sesTenants'>,
  region: string,
  answer: Answer<Tenants> | undefined,
): Finding[] {
  if (!settings.sesTenants || answer === undefined) {
    return [
      finding(
        'Region',
        'region.ses-tenants',
        'ok',
        'SES tenants are off (sesTenants=false): every team sends with the account’s reputation.',
      ),
    ];
  }
  if (answer.ok) {
    return [
      finding(
        'Region',
        'region.ses-tenants',
        'ok',
        `SES tenants answer in ${region} (${answer.value.Tenants?.length ?? 0} listed): each team sends as its own tenant.`,
      ),
    ];
  }
  if (answer.error.name === 'UnknownOperationException' || answer.error.status === 404) {
    return [
      finding(
        'Region',
        'region.ses-tenants',
        'blocker',
        `SES in ${region} does not offer tenants (ListTenants: ${answer.error.name}), and with sesTenants on every email is sent as a team's tenant: none would go out.`,
        'Deploy with -c sesTenants=false (every team then shares the account’s sending reputation), or to a Region with SES tenants.',
      ),
    ];
  }
  return [
    couldNotCheck(
      'Region',
      'region.ses-tenants',
      `whether SES tenants work in ${region}`,
      answer.error,
      'ses:ListTenants',
    ),
  ];
}
