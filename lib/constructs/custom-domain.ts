import {
  DomainName,
  EndpointType,
  type RestApi,
  SecurityPolicy,
  type Stage,
} from 'aws-cdk-lib/aws-apigateway';
import {
  Certificate,
  CertificateValidation,
  type ICertificate,
} from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, PublicHostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';
import type { DomainPlan } from '#lib/own-domain.ts';

type ApiDomainPlan = NonNullable<DomainPlan['api']>;

/**
 * The service on the deployer's own name (docs/deploying.md#your-own-domain):
 * an edge-optimized API Gateway domain (TLS 1.2 or later) mapped at the root
 * to the stage, so `https://forms.acme.test/f/{key}` is the hosted page.
 * Edge-optimized like the API itself: requests to the name pass through
 * CloudFront, which adds the `CloudFront-Viewer-Country` header that
 * `blockedCountries` and `meta.country` read (a regional domain reaches the
 * API without CloudFront, and the header never comes). Its certificate is
 * therefore in us-east-1: the deployer's (`certificateArn`), or, for a stack
 * in us-east-1 with a hosted zone, requested here and validated by DNS in
 * the zone (lib/own-domain.ts refuses the rest). With a zone the alias
 * record is written too, else the name to point a CNAME at is an output of
 * the root stack.
 */
export class CustomDomain extends Construct {
  readonly domain: DomainName;
  /** The record to add by hand when the stack has no hosted zone: `name CNAME target`. */
  readonly dnsRecord: string | undefined;

  constructor(
    scope: Construct,
    id: string,
    props: { plan: ApiDomainPlan; api: RestApi; stage: Stage },
  ) {
    super(scope, id);
    const { plan } = props;
    const zone = plan.zone
      ? PublicHostedZone.fromPublicHostedZoneAttributes(this, 'Zone', plan.zone)
      : undefined;
    let certificate: ICertificate;
    if (plan.certificateArn) {
      certificate = Certificate.fromCertificateArn(this, 'Certificate', plan.certificateArn);
    } else if (zone) {
      certificate = new Certificate(this, 'Certificate', {
        domainName: plan.domainName,
        validation: CertificateValidation.fromDns(zone),
      });
    } else {
      // planDomains refuses this combination; kept as a guard for direct use.
      throw new Error(`domainName "${plan.domainName}" needs a hosted zone or certificateArn`);
    }
    this.domain = new DomainName(this, 'DomainName', {
      domainName: plan.domainName,
      certificate,
      endpointType: EndpointType.EDGE,
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    this.domain.addBasePathMapping(props.api, { stage: props.stage });
    if (zone) {
      new ARecord(this, 'Alias', {
        zone,
        recordName: plan.domainName,
        target: RecordTarget.fromAlias(new ApiGatewayDomain(this.domain)),
      });
    } else {
      this.dnsRecord = `${plan.domainName} CNAME ${this.domain.domainNameAliasDomainName}`;
    }
  }
}
