import type { DescribeCertificateCommandOutput } from '@aws-sdk/client-acm';
import type { GetHostedZoneCommandOutput } from '@aws-sdk/client-route-53';
import { certificateRegion, planDomains } from '#lib/own-domain.ts';
import { type Answer, couldNotCheck, type Finding, finding } from './findings.ts';
import type { DeploySettings } from './settings.ts';

type DomainSettings = Pick<
  DeploySettings,
  | 'emailDomain'
  | 'domainName'
  | 'hostedZoneId'
  | 'hostedZoneName'
  | 'certificateArn'
  | 'sesIdentity'
  | 'emailSenderAddress'
  | 'baseUrl'
>;

/**
 * The stack's own check of the domain settings together (lib/own-domain.ts,
 * which stops the synth), with the Region the CDK CLI would tell it: run here
 * as the synth runs it, so a combination that cannot work (a certificate
 * outside us-east-1 for the edge-optimized domain among them) is a finding
 * before anything else is read.
 */
export function domainPlanFindings(settings: DomainSettings, region?: string): Finding[] {
  try {
    planDomains(
      {
        ...settings,
        // A sender left unset is reported once, by the sender check.
        emailSenderAddress:
          settings.emailSenderAddress ??
          (settings.emailDomain ? `forms@${settings.emailDomain}` : ''),
      },
      region,
    );
    return [];
  } catch (error) {
    return [
      finding(
        'Settings',
        'settings.domains',
        'blocker',
        `${(error as Error).message}: the synth stops on it.`,
        'Change those settings as the sentence says (docs/deploying.md#your-own-domain).',
      ),
    ];
  }
}

type Zone = Pick<GetHostedZoneCommandOutput, 'HostedZone'>;

/** `hostedZoneId` names a public zone of this account, named `hostedZoneName`. */
export function hostedZoneFindings(
  settings: Pick<DomainSettings, 'hostedZoneId' | 'hostedZoneName'>,
  answer: Answer<Zone>,
): Finding[] {
  const { hostedZoneId: id, hostedZoneName: name } = settings;
  if (!answer.ok) {
    if (answer.error.name === 'NoSuchHostedZone') {
      return [
        finding(
          'Own domain',
          'domain.zone',
          'blocker',
          `hostedZoneId ${id}: no such hosted zone in this account, so the stack cannot write its records there and the deploy fails.`,
          `Find the zone's id: aws route53 list-hosted-zones-by-name --dns-name ${name || '<domain>'} --max-items 1; or drop hostedZoneId and hostedZoneName and give certificateArn.`,
        ),
      ];
    }
    return [
      couldNotCheck(
        'Own domain',
        'domain.zone',
        `the hosted zone ${id}`,
        answer.error,
        'route53:GetHostedZone',
      ),
    ];
  }
  const zone = answer.value.HostedZone;
  const actual = (zone?.Name ?? '').toLowerCase().replace(/\.$/, '');
  const findings: Finding[] = [];
  if (zone?.Config?.PrivateZone) {
    findings.push(
      finding(
        'Own domain',
        'domain.zone-public',
        'blocker',
        `Hosted zone ${id} (${actual}) is private: its records answer only inside its VPCs, so neither ACM's validation nor the public reaches the domain.`,
        `Use the public hosted zone of ${actual}: aws route53 list-hosted-zones-by-name --dns-name ${actual}`,
      ),
    );
  }
  if (actual !== name) {
    findings.push(
      finding(
        'Own domain',
        'domain.zone-name',
        'blocker',
        `Hosted zone ${id} is ${actual}, but hostedZoneName says ${name}: the stack would write records for names outside the zone, which Route 53 refuses.`,
        `Set -c hostedZoneName=${actual}, or the id of ${name}'s zone.`,
      ),
    );
  }
  if (findings.length === 0) {
    findings.push(
      finding(
        'Own domain',
        'domain.zone',
        'ok',
        `Hosted zone ${id} is the public zone of ${actual}.`,
      ),
    );
  }
  return findings;
}

/** A certificate name covers `name` exactly, or as a wildcard of one label (`*.acme.test`). */
export function certificateCovers(certificateName: string, name: string): boolean {
  const pattern = certificateName.toLowerCase().replace(/\.$/, '');
  const host = name.toLowerCase();
  if (pattern.startsWith('*.')) {
    const rest = pattern.slice(2);
    const dot = host.indexOf('.');
    return dot > 0 && host.slice(dot + 1) === rest;
  }
  return pattern === host;
}

type Certificate = Pick<DescribeCertificateCommandOutput, 'Certificate'>;

/**
 * `certificateArn`: issued, and naming `domainName`. Read in the
 * certificate's own Region, so a certificate in the wrong Region is still
 * described.
 */
export function certificateFindings(
  settings: Pick<DomainSettings, 'certificateArn' | 'domainName'>,
  answer: Answer<Certificate>,
): Finding[] {
  const arn = settings.certificateArn;
  const findings: Finding[] = [];
  // Outside us-east-1 the synth's own check says so (domainPlanFindings).
  const region = certificateRegion(arn);
  if (!answer.ok) {
    if (answer.error.name === 'ResourceNotFoundException') {
      findings.push(
        finding(
          'Own domain',
          'domain.certificate',
          'blocker',
          `certificateArn: no such certificate in ${region ?? 'its Region'} for this account.`,
          'Copy the ARN from ACM (aws acm list-certificates --region us-east-1).',
        ),
      );
    } else {
      findings.push(
        couldNotCheck(
          'Own domain',
          'domain.certificate',
          'the certificate',
          answer.error,
          'acm:DescribeCertificate',
        ),
      );
    }
    return findings;
  }
  const certificate = answer.value.Certificate ?? {};
  const status = certificate.Status ?? 'unknown';
  if (status !== 'ISSUED') {
    findings.push(
      finding(
        'Own domain',
        'domain.certificate-status',
        'blocker',
        `The certificate is ${status}, not ISSUED: API Gateway takes only an issued certificate.`,
        status === 'PENDING_VALIDATION'
          ? `Add its validation CNAME (aws acm describe-certificate --region ${region} --certificate-arn <arn> --query Certificate.DomainValidationOptions) and wait for ACM to issue it.`
          : 'Request a new certificate (ACM does not reissue this one) and set its ARN.',
      ),
    );
  }
  const names = [
    ...new Set([certificate.DomainName, ...(certificate.SubjectAlternativeNames ?? [])]),
  ].filter((n): n is string => Boolean(n));
  if (settings.domainName && !names.some((n) => certificateCovers(n, settings.domainName))) {
    findings.push(
      finding(
        'Own domain',
        'domain.certificate-name',
        'blocker',
        `The certificate names ${names.join(', ') || 'nothing'}, not ${settings.domainName}: browsers would refuse the domain's TLS, and API Gateway refuses the pairing.`,
        `Use a certificate for ${settings.domainName} (or *.${settings.domainName.split('.').slice(1).join('.')}).`,
      ),
    );
  }
  if (findings.length === 0) {
    findings.push(
      finding(
        'Own domain',
        'domain.certificate',
        'ok',
        `The certificate is ISSUED in ${region} and covers ${settings.domainName}.`,
      ),
    );
  }
  return findings;
}
