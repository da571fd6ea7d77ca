/**
 * The shapes a deployment takes (docs/deploying.md#shapes-of-a-deployment):
 * each a set of CDK context values over cdk.json's. The stack limits test,
 * the cdk-nag test and `npm run lint:cfn` check every one of them.
 */
const ZONE = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'acme.test' };
const EDGE_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0b1c2d3e-aaaa-bbbb-cccc';

export const DEPLOY_VARIANTS: Record<string, Record<string, unknown>> = {
  /** `cdk deploy -c emailSenderAddress=…`: nothing else set. */
  plain: {},
  /** Own domain, DNS in Route 53: the stack writes every record and requests the certificate. */
  zone: {
    emailDomain: 'acme.test',
    emailSenderAddress: 'forms@acme.test',
    domainName: 'forms.acme.test',
    ...ZONE,
  },
  /** Own domain, DNS elsewhere: the deployer's certificate in us-east-1. */
  certificate: { domainName: 'forms.acme.test', certificateArn: EDGE_CERTIFICATE },
  /** A Region without GuardDuty Malware Protection for S3, or an owner who wants none. */
  'scanning-off': { malwareScanning: 'off' },
  /** An account or region without SES tenants. */
  'tenants-off': { sesTenants: false },
  /** Every option on at once: the most resources and the longest templates. */
  'all-options': {
    emailDomain: 'acme.test',
    emailSenderAddress: 'forms@acme.test',
    domainName: 'forms.acme.test',
    ...ZONE,
    tracing: true,
    alarmEmail: 'ops@acme.test',
    googleServiceAccountSecret: 'form-service/google-key',
    submitReservedConcurrency: 50,
    webAclArn:
      'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/forms/a1b2c3d4-5678-90ab-cdef-0123456789ab',
  },
};
