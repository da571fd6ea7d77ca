import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { resourcesOfType, statementsOf, synthesize } from './synthesize.ts';

/**
 * Issue 33, item 2: every email carries the stack's configuration set,
 * whose events reach the emailEvents queue through EventBridge
 * (docs/delivery.md#what-became-of-an-email).
 */
const built = synthesize();
const { template } = built;
const idOf = (type: string) => Object.keys(resourcesOfType(template, type))[0]!;

describe('the configuration set and its events', () => {
  it('one configuration set with reputation metrics, publishing every fate to the default bus', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      ReputationOptions: { ReputationMetricsEnabled: true },
    });
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: idOf('AWS::SES::ConfigurationSet') },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: Match.arrayEquals([
          'send',
          'delivery',
          'bounce',
          'complaint',
          'reject',
          'deliveryDelay',
        ]),
        EventBridgeDestination: {
          EventBusArn: Match.anyValue(),
        },
      },
    });
  });

  it('a rule takes this configuration set’s SES events to the emailEvents queue, its DLQ behind', () => {
    const rules = (
      Object.values(resourcesOfType(template, 'AWS::Events::Rule')) as {
        Properties: {
          EventPattern: { source?: unknown };
          Targets: { Arn: unknown; DeadLetterConfig?: unknown }[];
        };
      }[]
    ).filter((rule) => JSON.stringify(rule.Properties.EventPattern.source) === '["aws.ses"]');
    expect(rules).toHaveLength(1);
    const [rule] = rules;
    expect(rule!.Properties.EventPattern).toEqual({
      source: ['aws.ses'],
      detail: {
        mail: { tags: { 'ses:configuration-set': [{ Ref: idOf('AWS::SES::ConfigurationSet') }] } },
      },
    });
    const target = rule!.Properties.Targets[0]!;
    expect(JSON.stringify(target.Arn)).toContain('EmailEvents');
    expect(JSON.stringify(target.DeadLetterConfig)).toContain('EmailEventsDeadLetters');
  });

  it('the email worker may send only as the identity with the configuration set, and knows its name', () => {
    const sends = statementsOf(built, 'emailWorker').filter((s) => s.Action === 'ses:SendEmail');
    expect(sends).toHaveLength(1);
    const resources = JSON.stringify(sends[0]!.Resource);
    expect(resources).toContain(':identity/example.com');
    expect(resources).toContain(':configuration-set/');
    const worker = built.functionOf('emailWorker');
    const variables = (
      resourcesOfType(built.flat, 'AWS::Lambda::Function')[built.logicalId(worker.lambda)] as {
        Properties: { Environment: { Variables: Record<string, unknown> } };
      }
    ).Properties.Environment.Variables;
    expect(variables.EMAIL_CONFIGURATION_SET).toEqual({ Ref: idOf('AWS::SES::ConfigurationSet') });
  });

  it('the event worker reads its queue and writes the table, nothing else', () => {
    const actions = statementsOf(built, 'emailEventWorker').flatMap((s) => [s.Action].flat());
    expect(actions.some((a) => String(a).startsWith('ses:'))).toBe(false);
    expect(actions).toContain('sqs:ReceiveMessage');
    expect(actions).toContain('dynamodb:UpdateItem');
  });
});

describe('suppression at SES (docs/delivery.md#suppressed-addresses)', () => {
  const configurationSet = (target: typeof built) =>
    Object.values(resourcesOfType(target.template, 'AWS::SES::ConfigurationSet'))[0] as {
      Properties: Record<string, unknown>;
    };

  it('with tenants (the default) the configuration set leaves suppression to each tenant’s own list', () => {
    expect(configurationSet(built).Properties.SuppressionOptions).toBeUndefined();
  });

  it('sesTenants=false: the configuration set overrides the account-level list with no reasons, so one team’s complaint never has SES drop another team’s mail', () => {
    const shared = synthesize({ context: { sesTenants: 'false' } });
    expect(configurationSet(shared).Properties.SuppressionOptions).toEqual({
      SuppressedReasons: [],
    });
  });

  it('the lift route may DeleteSuppressedDestination on the teams’ tenants only, nothing else of SES', () => {
    const ses = statementsOf(built, 'liftSuppression').filter((s) =>
      [s.Action].flat().some((a) => String(a).startsWith('ses:')),
    );
    expect(ses).toHaveLength(1);
    expect(ses[0]!.Action).toBe('ses:DeleteSuppressedDestination');
    const resources = [ses[0]!.Resource].flat();
    expect(resources).toHaveLength(1);
    expect(JSON.stringify(resources[0])).toMatch(/:tenant\/team-\*"/);
  });
});
