import { Stack } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
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

  constructor(scope: Construct, id: string, identity: string) {
    super(scope, id);
    this.identity = identity;
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // Bounce and complaint rates of this deployment's mail, besides the account's.
      reputationMetrics: true,
    });
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
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identityArn(), this.configurationSetArn()],
      }),
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
