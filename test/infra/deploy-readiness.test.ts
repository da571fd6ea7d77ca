import { describe, expect, it } from 'vitest';
import { createFormServiceApp } from '#lib/form-service-app.ts';
import { everyAccessRoutes } from './route-fixtures.ts';
import {
  cdkJsonContext,
  type PolicyStatement,
  propertiesOf,
  resourcesOfType,
  statementsOf as statementsOfIn,
  synthesize,
} from './synthesize.ts';

/**
 * Issue 15, deploy readiness: what reading the synthesized template found.
 * Each point is a property of the real stack (cdk.json defaults).
 */
const built = synthesize();
/** Every stack's resources: the questions below are about the whole deployment. */
const template = built.all;
const resources = template.toJSON().Resources as Record<
  string,
  { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string }
>;

/** Properties that are a physical name: a literal string there blocks a redeploy or a second stack. */
const PHYSICAL_NAME_PROPERTIES = [
  'Name',
  'TableName',
  'BucketName',
  'QueueName',
  'FunctionName',
  'RoleName',
  'ManagedPolicyName',
  'LogGroupName',
  'TopicName',
  'AlarmName',
  'DashboardName',
  'ScheduleGroupName',
];

describe('physical names', () => {
  it('the schedule group is named by CloudFormation and removed with the stack', () => {
    const groups = Object.entries(resourcesOfType(template, 'AWS::Scheduler::ScheduleGroup'));
    expect(groups).toHaveLength(1);
    const [id, group] = groups[0]!;
    expect(propertiesOf(group).Name, 'no fixed schedule group name').toBeUndefined();
    expect(resources[id]!.DeletionPolicy ?? 'Delete', 'schedule group removal').toBe('Delete');
    // Every manager reads the generated name, never a literal.
    const managers = built.stack
      .allFunctions()
      .map(
        (fn) =>
          built.resolved(
            fn.lambda,
            propertiesOf(resources[built.logicalId(fn.lambda)]!).Environment as {
              Variables?: Record<string, unknown>;
            },
          )?.Variables,
      )
      .filter((v): v is Record<string, unknown> => v !== undefined && 'SCHEDULE_GROUP' in v);
    expect(managers.length, 'functions that manage schedules').toBeGreaterThan(0);
    for (const variables of managers) expect(variables.SCHEDULE_GROUP).toEqual({ Ref: id });
  });

  it('no resource has a fixed physical name (the REST API’s name is the stack’s)', () => {
    const fixed: string[] = [];
    for (const [id, resource] of Object.entries(resources)) {
      for (const property of PHYSICAL_NAME_PROPERTIES) {
        const value = resource.Properties?.[property];
        if (typeof value !== 'string') continue;
        if (resource.Type === 'AWS::ApiGateway::RestApi' && property === 'Name') continue;
        fixed.push(`${id} (${resource.Type}).${property} = ${value}`);
      }
    }
    expect(fixed, 'literal physical names').toEqual([]);
  });

  it('restApiName is the stack name, so two stacks are told apart', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: 'FormService' });
    const other = synthesize({ context: { stackName: 'FormServiceStaging' } });
    other.all.hasResourceProperties('AWS::ApiGateway::RestApi', {
      Name: 'FormServiceStaging',
    });
  });

  it('a stack with the probe routes still has one unnamed group', () => {
    const probes = synthesize({ routes: everyAccessRoutes });
    const groups = Object.values(resourcesOfType(probes.template, 'AWS::Scheduler::ScheduleGroup'));
    expect(groups.map((g) => propertiesOf(g).Name)).toEqual([undefined]);
  });
});

describe('the form closer, invoked asynchronously by EventBridge Scheduler', () => {
  const scheduling = built.stack.node.findChild('Scheduling');
  const failureQueue = scheduling.node.findChild('InvocationFailed').node.findChild('Queue');
  const closerId = built.logicalId(built.functionOf('formCloser').lambda);

  it('has an on-failure destination (an SQS queue) and bounded retries', () => {
    const configs = Object.values(resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig')).map(
      propertiesOf,
    );
    const closer = configs.filter(
      (c) => JSON.stringify(c.FunctionName) === JSON.stringify({ Ref: closerId }),
    );
    expect(closer).toHaveLength(1);
    expect(built.resolved(built.functionOf('formCloser'), closer[0])).toMatchObject({
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 3600,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [built.logicalId(failureQueue), 'Arn'] } },
      },
    });
  });

  it('the failure queue keeps messages 14 days, encrypted, and alarms on its first message', () => {
    const id = built.logicalId(failureQueue);
    expect(resources[id]!.Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('consumers finish before their work is handed out again', () => {
  it('the form purger takes one table-stream record per invocation', () => {
    const purgerId = built.logicalId(built.functionOf('formPurger').lambda);
    const mappings = Object.values(
      resourcesOfType(template, 'AWS::Lambda::EventSourceMapping'),
    ).map(propertiesOf);
    const purger = mappings.filter(
      (m) => JSON.stringify(m.FunctionName) === JSON.stringify({ Ref: purgerId }),
    );
    expect(purger).toHaveLength(1);
    expect(purger[0]!.BatchSize).toBe(1);
  });

  it('every SQS queue a function consumes hides a message for at least 6 × the function’s timeout', () => {
    const functions = resourcesOfType(template, 'AWS::Lambda::Function');
    const queues = resourcesOfType(template, 'AWS::SQS::Queue');
    const sqsMappings = [...built.templates]
      .flatMap(([path, each]) =>
        Object.values(resourcesOfType(each, 'AWS::Lambda::EventSourceMapping')).map((mapping) =>
          built.resolved(path, propertiesOf(mapping)),
        ),
      )
      .filter((m) => JSON.stringify(m.EventSourceArn).includes('Arn'))
      .filter((m) => !JSON.stringify(m.EventSourceArn).includes('StreamArn'));
    expect(sqsMappings.length).toBeGreaterThan(0);
    for (const mapping of sqsMappings) {
      const queueId = (mapping.EventSourceArn as { 'Fn::GetAtt': [string, string] })[
        'Fn::GetAtt'
      ][0];
      const fnId = (mapping.FunctionName as { Ref: string }).Ref;
      const timeout = propertiesOf(functions[fnId]!).Timeout as number;
      const visibility = propertiesOf(queues[queueId]!).VisibilityTimeout as number;
      expect(visibility, `${queueId} consumed by ${fnId}`).toBeGreaterThanOrEqual(6 * timeout);
    }
  });
});

describe('API Gateway', () => {
  const stage = () =>
    Object.values(resourcesOfType(template, 'AWS::ApiGateway::Stage')).map(propertiesOf)[0]!;

  it('creates the execution-log group with the stack’s retention, before the stage', () => {
    const restApiId = built.logicalId(built.stack.api.restApi);
    const groups = Object.entries(resourcesOfType(template, 'AWS::Logs::LogGroup')).filter(
      ([, g]) => JSON.stringify(propertiesOf(g).LogGroupName ?? '').includes('Execution-Logs'),
    );
    expect(groups).toHaveLength(1);
    const [groupId, group] = groups[0]!;
    expect(built.resolved(built.stack.stage, propertiesOf(group))).toEqual({
      LogGroupName: {
        'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: restApiId }, '/prod']],
      },
      RetentionInDays: Number(cdkJsonContext.logRetentionDays),
    });
    const stageEntry = Object.values(resources).find(
      (r) => r.Type === 'AWS::ApiGateway::Stage',
    ) as {
      DependsOn?: string[];
    };
    expect(stageEntry.DependsOn ?? []).toContain(groupId);
  });

  it('every gateway response exposes x-request-id, Retry-After and Idempotent-Replayed to browsers', () => {
    const responses = Object.values(
      resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse'),
    ).map(propertiesOf);
    expect(responses.length).toBeGreaterThan(0);
    for (const response of responses) {
      expect(
        (response.ResponseParameters as Record<string, string>)[
          'gatewayresponse.header.Access-Control-Expose-Headers'
        ],
        String(response.ResponseType),
      ).toBe("'x-request-id, retry-after, idempotent-replayed'");
    }
  });

  it('the public submit route has its own method throttle, from context with defaults', () => {
    expect(stage().MethodSettings).toContainEqual({
      DataTraceEnabled: false,
      HttpMethod: 'POST',
      MetricsEnabled: true,
      ResourcePath: '/~1s~1{key}',
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 100,
    });
    const custom = synthesize({
      context: { submitThrottleRatePerSecond: '5', submitThrottleBurst: '8' },
    });
    const [customStage] = Object.values(resourcesOfType(custom.all, 'AWS::ApiGateway::Stage')).map(
      propertiesOf,
    );
    expect(customStage!.MethodSettings).toContainEqual({
      DataTraceEnabled: false,
      HttpMethod: 'POST',
      MetricsEnabled: true,
      ResourcePath: '/~1s~1{key}',
      ThrottlingRateLimit: 5,
      ThrottlingBurstLimit: 8,
    });
  });

  it('no function reserves concurrency unless the deployer sets submitReservedConcurrency (a new account’s quota may be 10)', () => {
    const reserving = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).filter(
      ([, fn]) => 'ReservedConcurrentExecutions' in propertiesOf(fn),
    );
    expect(
      reserving.map(([id]) => id),
      'by default no function reserves concurrency',
    ).toEqual([]);
    for (const [value, expected] of [
      ['25', 25],
      ['0', undefined],
      ['', undefined],
    ] as const) {
      const custom = synthesize({ context: { submitReservedConcurrency: value } });
      const fn = custom.all.toJSON().Resources[
        custom.logicalId(custom.functionOf('submit').lambda)
      ] as { Properties: Record<string, unknown> };
      expect(
        fn.Properties.ReservedConcurrentExecutions,
        `submitReservedConcurrency "${value}"`,
      ).toBe(expected);
      const others = Object.entries(resourcesOfType(custom.all, 'AWS::Lambda::Function')).filter(
        ([id, each]) =>
          id !== custom.logicalId(custom.functionOf('submit').lambda) &&
          'ReservedConcurrentExecutions' in propertiesOf(each),
      );
      expect(others, 'only submit reserves concurrency').toEqual([]);
    }
  });
});

describe('least privilege where the code is narrow', () => {
  const statementsOf = (name: string) => statementsOfIn(built, name);
  const actionsOf = (name: string) =>
    [...new Set(statementsOf(name).flatMap((s) => [s.Action].flat()))].sort();

  it('the form closer may only update form items (closeFormOnSchedule) and report a failed invocation', () => {
    expect(actionsOf('formCloser')).toEqual([
      'dynamodb:UpdateItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'sqs:SendMessage',
    ]);
    const update = statementsOf('formCloser').find((s) => s.Action === 'dynamodb:UpdateItem');
    expect(update?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FORM#*'] },
    });
  });

  it('the delete route may only delete schedules (no create, no PassRole, no scheduler role or targets)', () => {
    const scheduler = actionsOf('deleteForm').filter(
      (a) => a.startsWith('scheduler:') || a.startsWith('iam:'),
    );
    expect(scheduler).toEqual(['scheduler:DeleteSchedule']);
    const fn = resources[built.logicalId(built.functionOf('deleteForm').lambda)]!;
    const variables = (fn.Properties!.Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(Object.keys(variables).length).toBeGreaterThan(3);
    expect(variables).toHaveProperty('SCHEDULE_GROUP');
    for (const absent of ['SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN', 'FORM_CLOSER_ARN'])
      expect(variables, absent).not.toHaveProperty(absent);
  });

  it('no role may read a schedule: no code calls GetSchedule', () => {
    const all = Object.values(resourcesOfType(template, 'AWS::IAM::Policy')).flatMap((p) =>
      (propertiesOf(p).PolicyDocument as { Statement: PolicyStatement[] }).Statement.flatMap((s) =>
        [s.Action].flat(),
      ),
    );
    expect(all).not.toContain('scheduler:GetSchedule');
  });
});

describe('a first deploy that works', () => {
  it('stops before building anything when no sender address is set, saying what to set', () => {
    const { emailSenderAddress: _, ...withoutSender } = cdkJsonContext;
    expect(() =>
      createFormServiceApp({
        context: { ...withoutSender, 'aws:cdk:bundling-stacks': [] },
        builtinCloudFormationValidation: false,
      }),
    ).toThrow(
      /CDK context "emailSenderAddress" is not set: .*SES refuses forms@example\.com\. Deploy with -c emailSenderAddress=/,
    );
    // Set, whatever the address, it synthesizes (an unverified one is the deploy check's to tell).
    expect(synthesize({ context: { emailSenderAddress: 'forms@acme.test' } }).all).toBeDefined();
  });
});

describe('cdk.json', () => {
  it('targets only the aws partition: the API is edge-optimized, and aws-cn has no edge endpoint', () => {
    expect(cdkJsonContext['@aws-cdk/core:target-partitions']).toEqual(['aws']);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['EDGE'] },
    });
  });
});
