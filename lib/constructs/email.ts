import { Stack } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  type CfnConfigurationSet,
  ConfigurationSet,
  EmailSendingEvent,
  EventDestination,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { TEAM_TENANT_PREFIX } from '#domain/email-tenants.ts';
import { acknowledgeWildcardResource } from './nag-finding.ts';
import type { ServiceQueue } from './queues.ts';
import type { ServiceFunction } from './service-function.ts';

/** The events that tell an email's fate (docs/delivery.md#what-became-of-an-email). */
const FATE_EVENTS = [
  EmailSendingEvent.SEND,
  EmailSendingEvent.DELIVERY,
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
  EmailSendingEvent.REJECT,
  EmailSendingEvent.DELIVERY_DELAY,
];

/**
 * Sending as the deployment's SES identity: a domain the stack verifies
 * (`emailDomain`, lib/constructs/sending-domain.ts) or a domain or address
 * verified by hand. Every email goes out with the stack's configuration set,
 * whose events (send, delivery, bounce, complaint, reject, delay) reach
 * the default EventBridge bus, where a rule of this stack takes those of
 * its own configuration set to the emailEvents queue. `ses:SendEmail` is
 * granted on that identity and that configuration set only.
 */
export class EmailSending extends Construct {
  /** The verified identity: `example.com`, or the sender address itself. */
  readonly identity: string;
  readonly configurationSet: ConfigurationSet;

  constructor(
    scope: Construct,
    id: string,
    identity: string,
    options: { sesTenants: boolean } = { sesTenants: true },
  ) {
    super(scope, id);
    this.identity = identity;
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // Bounce and complaint rates of this deployment's mail, besides the account's.
      reputationMetrics: true,
    });
    if (!options.sesTenants) {
      // Without tenants every team shares SES's account-level list: one team's complaint
      // would have SES drop every other team's mail to that address. The set overrides
      // the account's suppression with no reasons, so SES neither records nor drops this
      // stack's mail by that list; the teams' own lists decide
      // (docs/delivery.md#suppressed-addresses). With tenants, each tenant's own list
      // (tenant-scoped suppression) does that, and the set leaves it alone.
      (this.configurationSet.node.defaultChild as CfnConfigurationSet).addPropertyOverride(
        'SuppressionOptions.SuppressedReasons',
        [],
      );
    }
    // SES publishes to the default bus only.
    this.configurationSet.addEventDestination('ToEventBridge', {
      destination: EventDestination.eventBus(
        EventBus.fromEventBusName(this, 'DefaultBus', 'default'),
      ),
      events: FATE_EVENTS,
    });
  }

  identityArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'identity',
      resourceName: this.identity,
    });
  }

  configurationSetArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
  }

  grantSend(fn: ServiceFunction): void {
    fn.addEnvironment('EMAIL_CONFIGURATION_SET', this.configurationSet.configurationSetName);
    fn.addEnvironment('EMAIL_IDENTITY_ARN', this.identityArn());
    fn.addEnvironment('EMAIL_CONFIGURATION_SET_ARN', this.configurationSetArn());
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identityArn(), this.configurationSetArn()],
      }),
    );
  }

  /**
   * The teams' SES tenants (docs/delivery.md#one-team-cannot-pause-everyones-mail):
   * create one, read it, associate the identity and the configuration set with
   * it, put SES's managed reputation policy on it, and send as it. Tenants are
   * named at run time (one a team), so the actions take the account's tenants.
   */
  grantTenants(fn: ServiceFunction): void {
    const stack = Stack.of(this);
    const tenants = stack.formatArn({ service: 'ses', resource: 'tenant', resourceName: '*' });
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'ses:SendEmail',
          'ses:CreateTenant',
          'ses:GetTenant',
          'ses:CreateTenantResourceAssociation',
          'ses:UpdateReputationEntityPolicy',
        ],
        resources: [tenants, this.identityArn(), this.configurationSetArn()],
      }),
    );
    const policies = `arn:${stack.partition}:ses:${stack.region}:aws:reputation-policy/*`;
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ses:UpdateReputationEntityPolicy'], resources: [policies] }),
    );
    acknowledgeWildcardResource(
      fn.role,
      tenants,
      'One SES tenant per team, named at run time when the team sends its first email; the actions are the tenant setup and send only.',
    );
    acknowledgeWildcardResource(
      fn.role,
      policies,
      'SES-managed reputation policies (none, standard, strict) are AWS-owned ARNs; only UpdateReputationEntityPolicy is allowed on them.',
    );
  }

  /**
   * Lifting an address (docs/delivery.md#suppressed-addresses): SES's own entry
   * goes from the team's tenant list. DeleteSuppressedDestination takes the
   * tenant as its resource (the service authorization reference: resource type
   * `tenant`, optional; without it the account-level list, which needs `*` and
   * is never asked for), so the grant names the teams' tenants (`team-…`) only.
   */
  grantSuppressionLifts(fn: ServiceFunction): void {
    const teamTenants = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'tenant',
      resourceName: `${TEAM_TENANT_PREFIX}*`,
    });
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:DeleteSuppressedDestination'],
        resources: [teamTenants],
      }),
    );
    acknowledgeWildcardResource(
      fn.role,
      teamTenants,
      'One SES tenant per team, named at run time; the route lifts an address from the caller team’s tenant list only (DeleteSuppressedDestination).',
    );
  }

  /** The configuration set's events to `queue`, retried by EventBridge, then to its dead-letter queue. */
  publishEventsTo(queue: ServiceQueue): void {
    new Rule(this, 'EventsRule', {
      description: 'SES events of this stack’s emails to the emailEvents queue',
      eventPattern: {
        source: ['aws.ses'],
        detail: {
          mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } },
        },
      },
      targets: [new SqsQueue(queue.queue, { deadLetterQueue: queue.deadLetterQueue })],
    });
  }
}
