import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { countryOf } from '#domain/visitor.ts';
import { planDomains } from '#lib/own-domain.ts';
import { cdkJsonContext, resourcesOfType, synthesize } from './synthesize.ts';

/**
 * Issue 33, items 1 and 6: the deployer's own domain as the SES sending
 * identity and as the service's address, in the template for each
 * combination of context keys (docs/deploying.md#your-own-domain).
 */
const ZONE = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'acme.test' };
const SENDER = { emailSenderAddress: 'forms@acme.test' };

type Outputs = Record<string, { Value: unknown; Description?: string }>;
const outputsOf = (built: ReturnType<typeof synthesize>) =>
  (built.template.toJSON().Outputs ?? {}) as Outputs;
/** An output's value as text, tokens shown as their JSON. */
const outputText = (outputs: Outputs, idPart: string) => {
  const entry = Object.entries(outputs).find(([id]) => id.includes(idPart));
  return entry ? JSON.stringify(entry[1].Value) : undefined;
};
const baseUrlsOf = (built: ReturnType<typeof synthesize>) =>
  new Set(
    Object.values(resourcesOfType(built.flat, 'AWS::Lambda::Function')).map((fn) => {
      const variables = (
        fn as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
      ).Properties.Environment?.Variables;
      return JSON.stringify(variables?.BASE_URL);
    }),
  );

describe('without emailDomain or domainName (cdk.json as shipped)', () => {
  const built = synthesize();
  it('builds no identity, certificate, domain name or DNS record', () => {
    for (const type of [
      'AWS::SES::EmailIdentity',
      'AWS::CertificateManager::Certificate',
      'AWS::ApiGateway::DomainName',
      'AWS::ApiGateway::BasePathMapping',
      'AWS::Route53::RecordSet',
    ]) {
      built.all.resourceCountIs(type, 0);
    }
    expect(outputText(outputsOf(built), 'Dmarc')).toBeUndefined();
  });
});

describe('emailDomain without a hosted zone', () => {
  const built = synthesize({ context: { emailDomain: 'acme.test', ...SENDER } });
  const outputs = outputsOf(built);

  it('creates the domain identity with Easy DKIM and MAIL FROM bounce.<domain>', () => {
    built.template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    built.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'acme.test',
      MailFromAttributes: {
        MailFromDomain: 'bounce.acme.test',
        BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
      },
    });
    built.template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('outputs exactly the records to add: three DKIM CNAMEs, the MAIL FROM MX and SPF, a DMARC suggestion', () => {
    for (const index of [1, 2, 3]) {
      const text = outputText(outputs, `DkimRecord${index}`);
      expect(text, `DKIM record ${index}`).toContain(`DkimDNSTokenName${index}`);
      expect(text).toContain(`DkimDNSTokenValue${index}`);
      expect(text).toContain('CNAME');
    }
    expect(outputText(outputs, 'MailFromMxRecord')).toMatch(
      /bounce\.acme\.test MX 10 feedback-smtp\..*AWS::Region.*\.amazonses\.com/,
    );
    expect(outputText(outputs, 'MailFromSpfRecord')).toContain(
      'bounce.acme.test TXT \\"v=spf1 include:amazonses.com ~all\\"',
    );
    expect(outputText(outputs, 'DmarcSuggestion')).toContain('_dmarc.acme.test TXT \\"v=DMARC1;');
  });

  it('grants ses:SendEmail on that identity only', () => {
    const policies = JSON.stringify(resourcesOfType(built.flat, 'AWS::IAM::Policy'));
    expect(policies).toContain(':identity/acme.test');
    expect(policies).not.toMatch(/identity\/\*/);
  });
});

describe('emailDomain with a hosted zone', () => {
  const built = synthesize({
    context: { emailDomain: 'mail.acme.test', emailSenderAddress: 'forms@mail.acme.test', ...ZONE },
  });

  it('writes the DKIM CNAMEs and the MAIL FROM MX and SPF records to the zone', () => {
    const records = Object.values(resourcesOfType(built.all, 'AWS::Route53::RecordSet')).map(
      (record) => (record as { Properties: Record<string, unknown> }).Properties,
    );
    expect(records.filter((r) => r.Type === 'CNAME')).toHaveLength(3);
    for (const record of records) expect(record.HostedZoneId).toBe(ZONE.hostedZoneId);
    const mx = records.find((r) => r.Type === 'MX');
    expect(mx?.Name).toBe('bounce.mail.acme.test.');
    expect(JSON.stringify(mx?.ResourceRecords)).toMatch(/10 feedback-smtp\./);
    const txt = records.find((r) => r.Type === 'TXT');
    expect(txt?.Name).toBe('bounce.mail.acme.test.');
    expect(txt?.ResourceRecords).toEqual(['"v=spf1 include:amazonses.com ~all"']);
    // A subdomain of the zone is the identity, not the zone's apex.
    built.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'mail.acme.test',
    });
    expect(outputText(outputsOf(built), 'DkimRecord1')).toBeUndefined();
    expect(outputText(outputsOf(built), 'DmarcSuggestion')).toContain('_dmarc.mail.acme.test');
  });
});

describe('domainName with a hosted zone', () => {
  const built = synthesize({ context: { domainName: 'forms.acme.test', ...ZONE } });

  it('requests a DNS-validated certificate, an edge-optimized TLS 1.2 domain mapped to the stage, and the alias', () => {
    built.all.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: 'forms.acme.test',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'forms.acme.test', HostedZoneId: ZONE.hostedZoneId }],
    });
    built.all.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'forms.acme.test',
      EndpointConfiguration: { Types: ['EDGE'] },
      SecurityPolicy: 'TLS_1_2',
      CertificateArn: Match.anyValue(),
    });
    built.all.hasResourceProperties('AWS::ApiGateway::BasePathMapping', {
      RestApiId: Match.anyValue(),
      Stage: Match.anyValue(),
    });
    built.all.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: 'forms.acme.test.',
      Type: 'A',
      HostedZoneId: ZONE.hostedZoneId,
      AliasTarget: Match.objectLike({ DNSName: Match.anyValue() }),
    });
  });

  it('puts CloudFront in front of the name, so the visitor’s country reaches the submit path', () => {
    // The name resolves to the edge domain's CloudFront distribution (the alias names it, in
    // CloudFront's own hosted zone), which forwards to the edge-optimized API: CloudFront adds
    // CloudFront-Viewer-Country on the way, and API Gateway hands it to the function.
    const [domain] = Object.entries(resourcesOfType(built.all, 'AWS::ApiGateway::DomainName'));
    const [record] = Object.values(resourcesOfType(built.all, 'AWS::Route53::RecordSet'));
    expect((record!.Properties as { AliasTarget?: unknown }).AliasTarget).toEqual({
      DNSName: { 'Fn::GetAtt': [domain![0], 'DistributionDomainName'] },
      HostedZoneId: { 'Fn::GetAtt': [domain![0], 'DistributionHostedZoneId'] },
    });
    built.all.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['EDGE'] },
    });
    // The header the submit path reads (blockedCountries, meta.country).
    expect(countryOf({ 'cloudfront-viewer-country': 'fr' })).toBe('FR');
  });

  it('derives every function’s BASE_URL from it (links, hosted page, cookie and CSRF origin)', () => {
    expect([...baseUrlsOf(built)]).toEqual([JSON.stringify('https://forms.acme.test')]);
    const outputs = outputsOf(built);
    expect(outputText(outputs, 'BaseUrl')).toBe(JSON.stringify('https://forms.acme.test'));
  });
});

describe('domainName with certificateArn and no zone', () => {
  const arn = 'arn:aws:acm:us-east-1:123456789012:certificate/0b1c2d3e-aaaa-bbbb-cccc-1234567890ab';
  const built = synthesize({ context: { domainName: 'forms.acme.test', certificateArn: arn } });

  it('uses the certificate as given, writes no record, and outputs the CNAME target (CloudFront’s)', () => {
    built.all.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    built.all.hasResourceProperties('AWS::ApiGateway::DomainName', {
      CertificateArn: arn,
      EndpointConfiguration: { Types: ['EDGE'] },
      SecurityPolicy: 'TLS_1_2',
    });
    built.all.resourceCountIs('AWS::Route53::RecordSet', 0);
    expect(JSON.stringify(built.resolved(built.stack, outputsOf(built).DnsTarget?.Value))).toMatch(
      /forms\.acme\.test CNAME .*DistributionDomainName/,
    );
  });
});

describe('settings that cannot work stop the synth with a sentence', () => {
  const settings = (overrides: Record<string, string>) => ({
    emailDomain: '',
    domainName: '',
    hostedZoneId: '',
    hostedZoneName: '',
    certificateArn: '',
    sesIdentity: '',
    emailSenderAddress: String(cdkJsonContext.emailSenderAddress),
    baseUrl: '',
    ...overrides,
  });

  it.each([
    [
      { emailDomain: 'acme.test', emailSenderAddress: 'forms@other.test' },
      /must be an address on emailDomain "acme.test"/,
    ],
    [
      { emailDomain: 'acme.test', emailSenderAddress: 'forms@acme.test', sesIdentity: 'acme.test' },
      /set one of them/,
    ],
    [
      { domainName: 'forms.acme.test' },
      /needs hostedZoneId and hostedZoneName .* or certificateArn/,
    ],
    [
      {
        domainName: 'forms.acme.test',
        hostedZoneId: ZONE.hostedZoneId,
        hostedZoneName: 'other.test',
      },
      /not in the hosted zone "other.test"/,
    ],
    [{ hostedZoneId: ZONE.hostedZoneId }, /go together/],
    [
      { domainName: 'forms.acme.test', ...ZONE, baseUrl: 'https://elsewhere.test' },
      /differs from domainName/,
    ],
    [
      { certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' },
      /domainName, which is empty/,
    ],
    [
      {
        emailDomain: 'acme.test',
        emailSenderAddress: 'forms@acme.test',
        hostedZoneId: ZONE.hostedZoneId,
        hostedZoneName: 'other.test',
      },
      /emailDomain "acme.test" is not in the hosted zone/,
    ],
    [
      { domainName: 'forms.acme.test', certificateArn: 'forms.acme.test' },
      /is not an ACM certificate's ARN/,
    ],
    [
      {
        domainName: 'forms.acme.test',
        certificateArn: 'arn:aws:iam::123456789012:server-certificate/forms',
      },
      /is not an ACM certificate's ARN/,
    ],
  ])('%o', (overrides, message) => {
    expect(() => planDomains(settings(overrides))).toThrow(message);
  });

  it('a certificate outside us-east-1 stops the synth, whatever the stack’s region (CloudFront takes no other)', () => {
    const elsewhere = 'arn:aws:acm:eu-west-1:123456789012:certificate/0b1c2d3e-aaaa';
    const edge = 'arn:aws:acm:us-east-1:123456789012:certificate/0b1c2d3e-aaaa';
    for (const region of ['eu-west-1', 'us-east-1', undefined]) {
      expect(() =>
        planDomains(settings({ domainName: 'forms.acme.test', certificateArn: elsewhere }), region),
      ).toThrow(
        /certificateArn is in eu-west-1: .* CloudFront takes certificates of us-east-1 only/,
      );
      const given = settings({ domainName: 'forms.acme.test', certificateArn: edge });
      expect(planDomains(given, region).api?.certificateArn).toBe(edge);
    }
  });

  it('a zone and no certificate: the stack requests it only when it deploys to us-east-1', () => {
    const given = settings({ domainName: 'forms.acme.test', ...ZONE });
    expect(() => planDomains(given, 'eu-west-1')).toThrow(
      /would request the certificate in eu-west-1, but an edge-optimized domain needs one in us-east-1/,
    );
    expect(planDomains(given, 'us-east-1').api?.zone).toEqual({
      hostedZoneId: ZONE.hostedZoneId,
      zoneName: 'acme.test',
    });
    // Synth with no region known (no CLI around it) cannot tell: it passes.
    expect(planDomains(given).api?.certificateArn).toBeUndefined();
  });

  it('reads the deployment’s region from the CDK CLI (CDK_DEFAULT_REGION) at synth', () => {
    const before = process.env.CDK_DEFAULT_REGION;
    process.env.CDK_DEFAULT_REGION = 'ap-southeast-2';
    try {
      expect(() => synthesize({ context: { domainName: 'forms.acme.test', ...ZONE } })).toThrow(
        /would request the certificate in ap-southeast-2/,
      );
    } finally {
      if (before === undefined) delete process.env.CDK_DEFAULT_REGION;
      else process.env.CDK_DEFAULT_REGION = before;
    }
  });

  it('accepts a sender on a subdomain of emailDomain, and a domainName equal to baseUrl', () => {
    const plan = planDomains(
      settings({
        emailDomain: 'acme.test',
        emailSenderAddress: 'forms@mail.acme.test',
        domainName: 'forms.acme.test',
        baseUrl: 'https://forms.acme.test',
        ...ZONE,
      }),
    );
    expect(plan.email?.mailFromDomain).toBe('bounce.acme.test');
    expect(plan.baseUrl).toBe('https://forms.acme.test');
  });

  it('a bad domain name in context names the key', () => {
    expect(() => synthesize({ context: { emailDomain: 'not a domain' } })).toThrow(/emailDomain/);
  });
});
