import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { ServiceFunction } from '#lib/constructs/service-function.ts';
import { STACK_SETTINGS } from '#lib/settings.ts';
import { METRIC_DIMENSIONS, METRICS_NAMESPACE, METRICS_SERVICE } from '#metrics';
import { QUEUES } from '#queues';
import { workers } from '#workers';
import { propertiesOf, resourcesOfType, type Synthesized, synthesize } from './synthesize.ts';

type Json = Record<string, unknown>;
interface Dimension {
  Name: string;
  Value: unknown;
}

const built = synthesize();

/** Every alarm: the nested stack's, and the dead-letter depth alarms the main stack keeps. */
function alarms(target: Synthesized = built): Json[] {
  return [target.observability, target.template].flatMap((template) =>
    Object.values(resourcesOfType(template, 'AWS::CloudWatch::Alarm')).map(propertiesOf),
  );
}

function dimensionsOf(alarm: Json): Record<string, unknown> {
  return Object.fromEntries(
    ((alarm.Dimensions ?? []) as Dimension[]).map((d) => [d.Name, d.Value]),
  );
}

/** The alarms on one metric, whose dimensions include `dimensions`. */
function alarmsOn(
  namespace: string,
  metricName: string,
  dimensions: Record<string, unknown>,
  target: Synthesized = built,
): Json[] {
  return alarms(target).filter(
    (alarm) =>
      alarm.Namespace === namespace &&
      alarm.MetricName === metricName &&
      Object.entries(dimensions).every(
        ([name, value]) => JSON.stringify(dimensionsOf(alarm)[name]) === JSON.stringify(value),
      ),
  );
}

/** The topic as the nested stack's alarms name it. */
function topicRef(target: Synthesized = built): Json {
  const topic = target.stack.observability.topic.node.defaultChild as CfnElement;
  return { Ref: target.stack.observability.resolve(topic.logicalId) };
}

/** The topic as the main stack's alarms name it: the nested stack's output. */
function topicOutput(target: Synthesized = built): Json {
  const nested = target.stack.observability.nestedStackResource as CfnElement;
  const outputs = Object.entries(target.observability.toJSON().Outputs ?? {}).filter(
    ([, output]) => JSON.stringify((output as Json).Value) === JSON.stringify(topicRef(target)),
  );
  expect(outputs, 'one output of the nested stack is the topic').toHaveLength(1);
  return { 'Fn::GetAtt': [target.logicalId(nested), `Outputs.${outputs[0]![0]}`] };
}

/** A construct of another stack, as the nested stack's alarms name it (a parameter). */
const ref = (target: Synthesized, construct: Parameters<Synthesized['logicalId']>[0]) =>
  target.refIn(target.stack.observability, construct);

const functions = built.stack.node
  .findAll()
  .filter((c): c is ServiceFunction => c instanceof ServiceFunction);
expect(functions).toHaveLength(built.stack.allFunctions().length);
const mainQueues = new Set(built.stack.queues.all().map((q) => q.queue));
const deadLetterQueues = built.stack.node
  .findAll()
  .filter((c): c is Queue => c instanceof Queue && !mainQueues.has(c));

describe('alarm topic', () => {
  it('is one SNS topic, encrypted with a rotated KMS key CloudWatch may use, TLS only', () => {
    built.observability.resourceCountIs('AWS::SNS::Topic', 1);
    built.template.resourceCountIs('AWS::SNS::Topic', 0);
    built.observability.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: Match.anyValue(),
    });
    built.observability.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: Match.arrayWith(['kms:Decrypt']),
          }),
        ]),
      }),
    });
    built.observability.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          Match.objectLike({
            Effect: 'Allow',
            Action: 'sns:Publish',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
          }),
        ]),
      }),
    });
  });

  it('has no subscription by default (alarmEmail empty)', () => {
    expect(STACK_SETTINGS.alarmEmail.default).toBe('');
    built.observability.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('subscribes the alarmEmail address when set', () => {
    const withEmail = synthesize({ context: { alarmEmail: 'ops@example.com' } });
    withEmail.observability.resourceCountIs('AWS::SNS::Subscription', 1);
    withEmail.observability.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: topicRef(withEmail),
    });
  });

  it('refuses an alarmEmail that is not an address', () => {
    expect(() => synthesize({ context: { alarmEmail: 'not an address' } })).toThrow(/alarmEmail/);
  });

  it('is the alarm action of every alarm of the stack, the dead-letter alarms included', () => {
    const nested = Object.values(
      resourcesOfType(built.observability, 'AWS::CloudWatch::Alarm'),
    ).map(propertiesOf);
    expect(nested.length).toBeGreaterThan(functions.length);
    for (const alarm of nested) {
      expect(alarm.AlarmActions, String(alarm.AlarmDescription)).toEqual([topicRef()]);
      expect(alarm.OKActions, `${alarm.AlarmDescription}: back to OK`).toEqual([topicRef()]);
    }
    // The dead-letter depth alarms stay with their queues, and reach the topic by its output.
    const main = Object.values(resourcesOfType(built.template, 'AWS::CloudWatch::Alarm')).map(
      propertiesOf,
    );
    expect(main.length).toBe(deadLetterQueues.length);
    for (const alarm of main) {
      expect(alarm.AlarmActions, String(alarm.AlarmDescription)).toEqual([topicOutput()]);
      expect(alarm.OKActions, String(alarm.AlarmDescription)).toEqual([topicOutput()]);
    }
  });
});

describe('alarms', () => {
  it('Lambda errors: one alarm per function, sum over 5 minutes > 0', () => {
    expect(functions.length).toBeGreaterThan(5);
    for (const fn of functions) {
      const found = alarmsOn('AWS/Lambda', 'Errors', { FunctionName: ref(built, fn.lambda) });
      expect(found, `Errors of ${fn.node.id}`).toHaveLength(1);
      expect(found[0]).toMatchObject({
        Statistic: 'Sum',
        Period: 300,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  it('Lambda throttles: one alarm on the account’s pool, and one per function that reserves concurrency', () => {
    const throttles = alarms().filter((a) => a.MetricName === 'Throttles');
    expect(throttles.map(dimensionsOf), 'no function reserves concurrency by default').toEqual([
      {},
    ]);
    expect(throttles[0]).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 0 });

    const reserving = synthesize({ context: { submitReservedConcurrency: '40' } });
    const submit = reserving.functionOf('submit');
    const found = alarms(reserving).filter((a) => a.MetricName === 'Throttles');
    expect(found.map(dimensionsOf)).toEqual([{ FunctionName: ref(reserving, submit.lambda) }, {}]);
    expect(String(found[0]!.AlarmDescription)).toContain('reserved concurrency of 40');
  });

  it('iterator age of each of the stream’s two readers: maximum > 60 s', () => {
    const streamWorkers = workers.filter((w) => w.trigger.kind === 'tableStream');
    expect(streamWorkers.map((w) => w.name).sort()).toEqual(['streamDispatcher', 'summaryRollup']);
    for (const worker of streamWorkers) {
      const fn = built.functionOf(worker.name);
      const found = alarmsOn('AWS/Lambda', 'IteratorAge', { FunctionName: ref(built, fn.lambda) });
      expect(found, worker.name).toHaveLength(1);
      expect(found[0]).toMatchObject({ Statistic: 'Maximum', Threshold: 60_000 });
    }
    expect(alarms().filter((a) => a.MetricName === 'IteratorAge')).toHaveLength(
      streamWorkers.length,
    );
  });

  it('every dead-letter queue: depth > 0 and oldest message older than 1 h', () => {
    // The DLQ of each queue (the dispatched workers' FIFO queues and the replay queue
    // included), the stream-failure queue, the schedule queues.
    expect(deadLetterQueues.length).toBeGreaterThanOrEqual(Object.keys(QUEUES).length + 3);
    for (const queue of deadLetterQueues) {
      const name = { 'Fn::GetAtt': [built.logicalId(queue), 'QueueName'] };
      // Depth in the main stack, beside its queue; age in the nested stack, by a parameter.
      const depth = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', { QueueName: name });
      const age = alarmsOn('AWS/SQS', 'ApproximateAgeOfOldestMessage', {
        QueueName: built.nestedRef(name),
      });
      expect(depth, `depth of ${queue.node.path}`).toHaveLength(1);
      expect(age, `age of ${queue.node.path}`).toHaveLength(1);
      expect(depth[0]).toMatchObject({ Threshold: 0 });
      expect(age[0]).toMatchObject({ Statistic: 'Maximum', Threshold: 3600 });
    }
  });

  const apiDimensions = () => ({
    ApiName: built.stack.stackName,
    Stage: STACK_SETTINGS.apiStageName.default,
  });

  /** The 5xx-rate alarm: metric math over the stage's 5XXError and Count sums. */
  function api5xxAlarm(target: Synthesized = built) {
    const found = alarms(target).filter((alarm) =>
      ((alarm.Metrics ?? []) as Json[]).some(
        (m) =>
          ((m.MetricStat as Json | undefined)?.Metric as Json | undefined)?.MetricName ===
          '5XXError',
      ),
    );
    expect(found, 'alarms on the 5XXError metric').toHaveLength(1);
    const metrics = found[0]!.Metrics as Json[];
    const stat = (name: string) => {
      const metric = metrics.find(
        (m) =>
          ((m.MetricStat as Json | undefined)?.Metric as Json | undefined)?.MetricName === name,
      );
      expect(metric, `the ${name} metric of the 5xx alarm`).toBeDefined();
      return metric!;
    };
    return { alarm: found[0]!, metrics, stat, expression: metrics.find((m) => m.Expression) };
  }

  it('API Gateway 5xx rate: 5XXError / Count of the stage > 1 %, with at least 20 requests', () => {
    const { alarm, metrics, stat, expression } = api5xxAlarm();
    expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarm.MetricName, 'a math alarm names no single metric').toBeUndefined();
    const errors = stat('5XXError');
    const requests = stat('Count');
    for (const metric of [errors, requests]) {
      expect(metric).toMatchObject({ ReturnData: false, MetricStat: { Stat: 'Sum', Period: 300 } });
      const dims = (((metric.MetricStat as Json).Metric as Json).Dimensions ?? []) as Dimension[];
      const byName = Object.fromEntries(dims.map((d) => [d.Name, d.Value]));
      expect(JSON.stringify(byName.ApiName)).toBe(JSON.stringify(apiDimensions().ApiName));
      expect(byName.Stage).toBe(apiDimensions().Stage);
      expect('Resource' in byName, 'the whole stage, not one resource').toBe(false);
    }
    expect(metrics.filter((m) => m.ReturnData !== false)).toEqual([expression]);
    expect(STACK_SETTINGS.alarmApi5xxMinRequests.default).toBe(20);
    expect(expression?.Expression).toBe(
      `IF(${requests.Id} >= 20, ${errors.Id} / ${requests.Id} * 100, 0)`,
    );
  });

  it('submit p99 latency: Latency of POST /s/{key} > 3000 ms', () => {
    const found = alarmsOn('AWS/ApiGateway', 'Latency', {
      ...apiDimensions(),
      Resource: '/s/{key}',
      Method: 'POST',
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ExtendedStatistic: 'p99', Period: 300, Threshold: 3000 });
  });

  it('webhook deliveries failing: FormService WebhookFailed (service=form-service) sum > 0', () => {
    const found = alarmsOn(METRICS_NAMESPACE, 'WebhookFailed', { service: METRICS_SERVICE });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Statistic: 'Sum', Period: 300, Threshold: 0 });
    expect(Object.keys(dimensionsOf(found[0]!))).toEqual(['service']);
  });

  it('SES rejections: the sum of EmailRejected over every kind (notification, auto-reply, malware) > 0', () => {
    const found = alarms().filter((alarm) =>
      JSON.stringify(alarm.Metrics ?? []).includes('"EmailRejected"'),
    );
    expect(found).toHaveLength(1);
    const metrics = found[0]!.Metrics as Json[];
    const expression = metrics.find((m) => m.Expression);
    expect(expression).toMatchObject({ ReturnData: true });
    const stats = metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat as Json);
    const kinds = stats.map((stat) => {
      const metric = stat.Metric as Json;
      expect(metric).toMatchObject({ Namespace: METRICS_NAMESPACE, MetricName: 'EmailRejected' });
      expect(stat).toMatchObject({ Stat: 'Sum', Period: 300 });
      const dims = Object.fromEntries(
        (metric.Dimensions as Dimension[]).map((d) => [d.Name, d.Value]),
      );
      expect(dims.service).toBe(METRICS_SERVICE);
      return dims.kind;
    });
    expect(kinds.sort()).toEqual(['autoreply', 'malware', 'notification']);
    expect(found[0]).toMatchObject({ Threshold: 0 });
  });

  it('SES reputation of the stack’s configuration set: bounce rate > 2 %, complaint rate > 0.05 %, and a paused tenant', () => {
    const ofTheSet = (a: Json) => 'ses:configuration-set' in dimensionsOf(a);
    const bounce = alarms().filter((a) => a.MetricName === 'Reputation.BounceRate' && ofTheSet(a));
    const complaint = alarms().filter(
      (a) => a.MetricName === 'Reputation.ComplaintRate' && ofTheSet(a),
    );
    expect(bounce).toHaveLength(1);
    expect(complaint).toHaveLength(1);
    expect(bounce[0]).toMatchObject({
      Namespace: 'AWS/SES',
      Threshold: 0.02,
      Statistic: 'Maximum',
    });
    expect(complaint[0]).toMatchObject({ Namespace: 'AWS/SES', Threshold: 0.0005 });
    // Scoped to this stack's configuration set (a parameter of the nested stack).
    expect(Object.keys(dimensionsOf(bounce[0]!))).toEqual(['ses:configuration-set']);
    const paused = alarmsOn(METRICS_NAMESPACE, 'EmailPaused', { service: METRICS_SERVICE });
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ Threshold: 0, Statistic: 'Sum' });
  });

  it('SES reputation of the whole account (sign-in mail and every sender of the account): the same thresholds, no dimensions', () => {
    const account = (metricName: string) =>
      alarms().filter((a) => a.MetricName === metricName && a.Dimensions === undefined);
    const bounce = account('Reputation.BounceRate');
    const complaint = account('Reputation.ComplaintRate');
    expect(bounce).toHaveLength(1);
    expect(complaint).toHaveLength(1);
    expect(bounce[0]).toMatchObject({
      Namespace: 'AWS/SES',
      Threshold: 0.02,
      Statistic: 'Maximum',
      Period: 3600,
    });
    expect(complaint[0]).toMatchObject({
      Namespace: 'AWS/SES',
      Threshold: 0.0005,
      Statistic: 'Maximum',
      Period: 3600,
    });
  });

  it('a pause of the whole sending, not one team’s tenant, alarms on its own (EmailSendingPaused)', () => {
    const paused = alarmsOn(METRICS_NAMESPACE, 'EmailSendingPaused', { service: METRICS_SERVICE });
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ Threshold: 0, Statistic: 'Sum' });
  });

  it('a lift that did not reach SES alarms (SesSuppressionNotLifted): the route answers 200 anyway', () => {
    const notLifted = alarmsOn(METRICS_NAMESPACE, 'SesSuppressionNotLifted', {
      service: METRICS_SERVICE,
    });
    expect(notLifted).toHaveLength(1);
    expect(notLifted[0]).toMatchObject({ Threshold: 0, Statistic: 'Sum' });
  });

  it('takes every threshold from the context', () => {
    const tuned = synthesize({
      context: {
        alarmLambdaErrors: '3',
        alarmLambdaThrottles: '2',
        alarmApi5xxPercent: '2.5',
        alarmApi5xxMinRequests: '50',
        alarmSubmitP99LatencyMs: '5000',
        alarmIteratorAgeSeconds: '120',
        alarmDeadLetterAgeSeconds: '7200',
        alarmWebhookFailures: '4',
        alarmEmailRejections: '5',
        alarmSesBounceRatePercent: '1',
        alarmSesComplaintRatePercent: '0.02',
      },
    });
    const thresholds = (metricName: string) =>
      new Set(
        alarms(tuned)
          .filter((a) => a.MetricName === metricName)
          .map((a) => a.Threshold),
      );
    expect(thresholds('Errors')).toEqual(new Set([3]));
    expect(thresholds('Throttles')).toEqual(new Set([2]));
    const api5xx = api5xxAlarm(tuned);
    expect(api5xx.alarm.Threshold).toBe(2.5);
    expect(api5xx.expression?.Expression).toMatch(/^IF\(\w+ >= 50, /);
    expect(thresholds('Latency')).toEqual(new Set([5000]));
    expect(thresholds('IteratorAge')).toEqual(new Set([120_000]));
    expect(thresholds('ApproximateAgeOfOldestMessage')).toEqual(new Set([7200]));
    expect(thresholds('WebhookFailed')).toEqual(new Set([4]));
    const email = alarms(tuned).find((a) =>
      JSON.stringify(a.Metrics ?? []).includes('EmailRejected'),
    );
    expect(email?.Threshold).toBe(5);
    expect(thresholds('Reputation.BounceRate')).toEqual(new Set([0.01]));
    expect(thresholds('Reputation.ComplaintRate')).toEqual(new Set([0.0002]));
  });
});

describe('dashboard', () => {
  const dashboards = Object.values(
    resourcesOfType(built.observability, 'AWS::CloudWatch::Dashboard'),
  );
  const body = JSON.stringify(dashboards.map(propertiesOf));

  it('is one dashboard, named by CloudFormation', () => {
    expect(dashboards).toHaveLength(1);
    expect(propertiesOf(dashboards[0]!).DashboardName).toBeUndefined();
  });

  it('shows submit outcomes, API latency and 5xx, Lambda errors, queues, webhooks and emails', () => {
    for (const metric of [
      'SubmissionAccepted',
      'SubmissionSpam',
      'SubmissionDropped',
      'SubmissionRejected',
      'Latency',
      '5XXError',
      'Errors',
      'Throttles',
      'ApproximateNumberOfMessagesVisible',
      'IteratorAge',
      'WebhookDelivered',
      'WebhookRetried',
      'WebhookFailed',
      'EmailSent',
      'EmailRejected',
      'EmailRetried',
    ]) {
      expect(body, metric).toContain(metric);
    }
    expect(body).toContain(METRICS_NAMESPACE);
    expect(body).toContain('/s/{key}');
  });

  it('searches each product metric by exactly the dimension names the code counts it with', () => {
    const searches = [...body.matchAll(/SEARCH\('\{([^}]*)\} MetricName=\\*"(\w+)\\*"/g)];
    expect(searches.map((match) => match[2])).toEqual([
      'SubmissionSpam',
      'SubmissionDropped',
      'SubmissionRejected',
      'WebhookCancelled',
      'EmailEvent',
    ]);
    for (const [, schema, name] of searches) {
      expect(schema?.split(','), name).toEqual([
        METRICS_NAMESPACE,
        'service',
        ...METRIC_DIMENSIONS[name as keyof typeof METRIC_DIMENSIONS],
      ]);
    }
  });
});
