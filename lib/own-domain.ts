import type { ServiceSettings } from './settings.ts';

/** A Route 53 public hosted zone, named so synth needs no lookup. */
export interface ZoneRef {
  hostedZoneId: string;
  zoneName: string;
}

/** What the stack builds for the deployer's own domain (docs/deploying.md#your-own-domain). */
export interface DomainPlan {
  /** The SES domain identity the stack creates, when `emailDomain` is set. */
  email?: { domain: string; mailFromDomain: string; zone?: ZoneRef };
  /** The API's custom domain, when `domainName` is set. */
  api?: { domainName: string; zone?: ZoneRef; certificateArn?: string };
  /** The service's public address: `https://<domainName>`, else `baseUrl` (empty: the stage's URL). */
  baseUrl: string;
}

/** The MAIL FROM subdomain: where bounces return (SPF is checked against it). */
export const MAIL_FROM_LABEL = 'bounce';

type DomainSettings = Pick<
  ServiceSettings,
  | 'emailDomain'
  | 'domainName'
  | 'hostedZoneId'
  | 'hostedZoneName'
  | 'certificateArn'
  | 'sesIdentity'
  | 'emailSenderAddress'
  | 'baseUrl'
>;

/** An ACM certificate's ARN; its fourth field is the certificate's region. */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;

/** The region of an ACM certificate's ARN; undefined when it is not one. */
export const certificateRegion = (arn: string): string | undefined =>
  CERTIFICATE_ARN.exec(arn)?.[1];

/** Where CloudFront, and so an edge-optimized API domain, takes its certificate from. */
export const EDGE_CERTIFICATE_REGION = 'us-east-1';

/** `name` is the zone's apex or under it. */
const within = (name: string, parent: string) => name === parent || name.endsWith(`.${parent}`);

/**
 * Checks the domain settings together and says what to build; a
 * combination that cannot work stops the synth with a sentence naming the
 * context keys, rather than deploying something that never verifies.
 */
export function planDomains(
  settings: DomainSettings,
  /**
   * The region the stack deploys to, when known at synth: the stack is
   * environment-agnostic, but the CDK CLI tells the app its region
   * (CDK_DEFAULT_REGION) on `cdk deploy`.
   */
  region?: string,
): DomainPlan {
  const fail = (message: string): never => {
    throw new Error(`Domain settings: ${message}`);
  };
  if ((settings.hostedZoneId === '') !== (settings.hostedZoneName === '')) {
    fail('hostedZoneId and hostedZoneName go together (the zone is not looked up at synth)');
  }
  const zone: ZoneRef | undefined = settings.hostedZoneId
    ? { hostedZoneId: settings.hostedZoneId, zoneName: settings.hostedZoneName }
    : undefined;
  const plan: DomainPlan = { baseUrl: settings.baseUrl };

  if (settings.emailDomain) {
    const domain = settings.emailDomain;
    if (settings.sesIdentity) {
      fail(
        `emailDomain "${domain}" makes the stack create the SES identity; sesIdentity "${settings.sesIdentity}" names one verified by hand: set one of them`,
      );
    }
    const senderDomain = settings.emailSenderAddress.split('@')[1]?.toLowerCase() ?? '';
    if (!within(senderDomain, domain)) {
      fail(
        `emailSenderAddress "${settings.emailSenderAddress}" must be an address on emailDomain "${domain}" (e.g. forms@${domain})`,
      );
    }
    if (zone && !within(domain, zone.zoneName)) {
      fail(`emailDomain "${domain}" is not in the hosted zone "${zone.zoneName}"`);
    }
    plan.email = { domain, mailFromDomain: `${MAIL_FROM_LABEL}.${domain}`, zone };
  }

  if (settings.domainName) {
    const name = settings.domainName;
    const zoneCovers = zone !== undefined && within(name, zone.zoneName);
    if (zone && !zoneCovers && !settings.certificateArn) {
      fail(
        `domainName "${name}" is not in the hosted zone "${zone.zoneName}": use a zone that holds it, or certificateArn`,
      );
    }
    if (!zoneCovers && !settings.certificateArn) {
      fail(
        `domainName "${name}" needs hostedZoneId and hostedZoneName (the certificate is validated and the alias written there) or certificateArn (a certificate you made)`,
      );
    }
    if (settings.certificateArn) {
      const certificateAt = certificateRegion(settings.certificateArn);
      if (!certificateAt) {
        fail(
          `certificateArn "${settings.certificateArn}" is not an ACM certificate's ARN (arn:aws:acm:<region>:<account>:certificate/<id>)`,
        );
      }
      // The domain is edge-optimized (CloudFront's viewer country reaches the API through it):
      // CloudFront takes certificates of us-east-1 only, whatever the stack's region.
      if (certificateAt !== EDGE_CERTIFICATE_REGION) {
        fail(
          `certificateArn is in ${certificateAt}: the API's domain is edge-optimized (through CloudFront, which adds the visitor's country), and CloudFront takes certificates of ${EDGE_CERTIFICATE_REGION} only: request or import the certificate there`,
        );
      }
    } else if (region && region !== EDGE_CERTIFICATE_REGION) {
      fail(
        `domainName "${name}" with a hosted zone and no certificateArn: the stack would request the certificate in ${region}, but an edge-optimized domain needs one in ${EDGE_CERTIFICATE_REGION}. Request a certificate for ${name} in ${EDGE_CERTIFICATE_REGION} (validated in the zone) and pass certificateArn`,
      );
    }
    const derived = `https://${name}`;
    if (settings.baseUrl && settings.baseUrl !== derived) {
      fail(
        `baseUrl "${settings.baseUrl}" differs from domainName's "${derived}": leave baseUrl empty, it follows domainName`,
      );
    }
    plan.api = {
      domainName: name,
      zone: zoneCovers ? zone : undefined,
      certificateArn: settings.certificateArn || undefined,
    };
    plan.baseUrl = derived;
  } else if (settings.certificateArn) {
    fail('certificateArn is for domainName, which is empty');
  }
  return plan;
}
