import { CfnOutput, Stack } from 'aws-cdk-lib';
import { type IPublicHostedZone, PublicHostedZone } from 'aws-cdk-lib/aws-route53';
import { EmailIdentity, type Identity, MailFromBehaviorOnMxFailure } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { DomainPlan } from '#lib/own-domain.ts';

type EmailPlan = NonNullable<DomainPlan['email']>;

/** The MX host SES receives bounces on for a custom MAIL FROM domain, in the stack's region. */
const feedbackHost = (scope: Construct) => `feedback-smtp.${Stack.of(scope).region}.amazonses.com`;

const SPF = 'v=spf1 include:amazonses.com ~all';

/**
 * The deployer's domain as the SES sending identity (docs/deploying.md#your-own-domain):
 * Easy DKIM (2048-bit), MAIL FROM on `bounce.<domain>` so SPF aligns with
 * the From domain and DMARC can pass on both. With a hosted zone the
 * identity's records are written there (the three DKIM CNAMEs, the MAIL
 * FROM MX and SPF TXT); without one, they are stack outputs to add by
 * hand. DMARC is only suggested, as an output: a domain may have a policy
 * already, and a record written here would fail the deployment or replace it.
 */
export class SendingDomain extends Construct {
  readonly identity: EmailIdentity;
  readonly domain: string;

  constructor(scope: Construct, id: string, plan: EmailPlan) {
    super(scope, id);
    this.domain = plan.domain;
    const zone: IPublicHostedZone | undefined = plan.zone
      ? PublicHostedZone.fromPublicHostedZoneAttributes(this, 'Zone', plan.zone)
      : undefined;
    // Not Identity.publicHostedZone(): that names the zone's apex, and the
    // sending domain may be a subdomain of the zone.
    const identity: Identity = { value: plan.domain, hostedZone: zone };
    this.identity = new EmailIdentity(this, 'Identity', {
      identity,
      mailFromDomain: plan.mailFromDomain,
      // Until the MX record resolves, mail goes out with amazonses.com's MAIL FROM, not refused.
      mailFromBehaviorOnMxFailure: MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE,
    });

    const output = (name: string, value: string, description: string) =>
      new CfnOutput(this, name, { value, description });
    if (!zone) {
      this.identity.dkimRecords.forEach((record, index) => {
        output(
          `DkimRecord${index + 1}`,
          `${record.name} CNAME ${record.value}`,
          `DKIM record ${index + 1} of 3 to add to ${plan.domain}'s DNS`,
        );
      });
      output(
        'MailFromMxRecord',
        `${plan.mailFromDomain} MX 10 ${feedbackHost(this)}`,
        'MAIL FROM record to add: where bounces return',
      );
      output(
        'MailFromSpfRecord',
        `${plan.mailFromDomain} TXT "${SPF}"`,
        'MAIL FROM SPF record to add',
      );
    }
    output(
      'DmarcSuggestion',
      `_dmarc.${plan.domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@${plan.domain}"`,
      'A DMARC record to start with when the domain has none: monitor, then move p to quarantine',
    );
  }
}
