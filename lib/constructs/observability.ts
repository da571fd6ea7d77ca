import { Duration, NestedStack, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { EmailJob } from '#domain/delivery-channels.ts';
import { METRIC_DIMENSIONS, METRICS_NAMESPACE, METRICS_SERVICE, type MetricName } from '#metrics';
import type { ServiceQueue } from './queues.ts';
import { ServiceFunction } from './service-function.ts';

/** The `alarm*` thresholds of lib/settings.ts, documented there and in docs/operations.md#alarms. */
export interface AlarmThresholds {
  alarmEmail: string;
  alarmLambdaErrors: number;
  alarmLambdaThrottles: number;
  alarmApi5xxPercent: number;
  alarmApi5xxMinRequests: number;
  alarmSubmitP99LatencyMs: number;
  alarmIteratorAgeSeconds: number;
  alarmDeadLetterAgeSeconds: number;
  alarmWebhookFailures: number;
  alarmEmailRejections: number;
  alarmSesBounceRatePercent: number;
  alarmSesComplaintRatePercent: number;
}

export interface ObservabilityProps {
  settings: AlarmThresholds;
  restApi: RestApi;
  stageName: string;
  /** `POST /s/{key}` when the route table has it (test tables may not). */
  submitRoute?: { method: string; path: string };
  /** The queues of lambdas/queues.ts that were built (their DLQs are found in the tree). */
  queues: readonly ServiceQueue[];
  /** Workers reading the table stream: one iterator-age alarm each. */
  streamConsumers: readonly ServiceFunction[];
  /** The SES configuration set every email goes out with: its reputation rates alarm. */
  configurationSetName?: string;
  /** Uploads are scanned for malware: late verdicts and the plan's trouble alarm. */
  malwareScanning?: boolean;
}

/** Every email kind: EmailRejected etc. carry `kind` as a dimension. */
const EMAIL_KINDS = [
  'notification',
  'autoreply',
  'malware',
] as const satisfies readonly EmailJob['kind'][];

const FIVE_MINUTES = Duration.minutes(5);

/** One product metric (lambdas/metrics.ts): namespace FormService, dimension service=form-service. */
export function productMetric(
  name: MetricName,
  dimensions: Record<string, string> = {},
  statistic = 'Sum',
): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
    statistic,
    period: FIVE_MINUTES,
  });
}

/** A product metric summed over every email kind. */
function emailMetric(name: MetricName, label: string): MathExpression {
  // Ids unique across expressions: one graph holds several of these.
  const id = (kind: string) => `${name.charAt(0).toLowerCase()}${name.slice(1)}_${kind}`;
  const usingMetrics = Object.fromEntries(
    EMAIL_KINDS.map((kind) => [id(kind), productMetric(name, { kind })]),
  );
  return new MathExpression({
    expression: EMAIL_KINDS.map(id).join(' + '),
    usingMetrics,
    label,
    period: FIVE_MINUTES,
  });
}

/**
 * Every value of a product metric's dimensions (METRIC_DIMENSIONS), one
 * line each (dashboard only). SEARCH matches only metrics with exactly the
 * schema's dimension names, so the schema comes from the declaration that
 * types what the code counts.
 */
export function searchProductMetric(name: MetricName, label: string): MathExpression {
  const schema = [METRICS_NAMESPACE, 'service', ...METRIC_DIMENSIONS[name]].join(',');
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${name}" service="${METRICS_SERVICE}"', 'Sum', 300)`,
    label,
    period: FIVE_MINUTES,
  });
}

/**
 * SES's reputation rates of one configuration set (its `reputationMetrics`
 * on), or, with none named, the account's own (no dimension): every email of
 * the account, the sign-in mail and other senders' included.
 */
function sesReputationMetrics(configurationSetName?: string) {
  // No label: a labelled metric renders as metric math, and the alarm reads plainer without.
  const metric = (metricName: string) =>
    new Metric({
      namespace: 'AWS/SES',
      metricName,
      dimensionsMap: configurationSetName
        ? { 'ses:configuration-set': configurationSetName }
        : undefined,
      statistic: 'Maximum',
      period: Duration.hours(1),
    });
  return {
    bounceRate: metric('Reputation.BounceRate'),
    complaintRate: metric('Reputation.ComplaintRate'),
  };
}

/**
 * The operator's view: one SNS topic every alarm of the stack notifies
 * (the dead-letter alarms of queues.ts and scheduling.ts included), the
 * alarms of the operations issue with thresholds from lib/settings.ts, and
 * one dashboard. Built last: it walks the stack for functions, queues and
 * alarms, so whatever was added before is covered.
 *
 * A nested stack of its own (docs/architecture.md#stacks): its alarms, two
 * per function, would otherwise take a fifth of CloudFormation's 500
 * resources a stack may hold. What it watches comes in as the nested
 * stack's parameters (function and queue names), and the dead-letter alarms
 * that stay with their queues reach the topic through its output.
 */
export class Observability extends NestedStack {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  /** The alarms built here (the DLQ depth alarms are built by their queues). */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    const stack = Stack.of(scope);
    super(scope, id, { description: `Alarms, alarm topic and dashboard of ${stack.stackName}` });
    const { settings } = props;

    // SNS encryption with a key CloudWatch may use: the AWS-managed SNS key's
    // policy cannot be changed, and alarms could not publish to a topic it encrypts.
    const key = new Key(this, 'TopicKey', {
      description: `Encrypts the alarm topic of ${stack.stackName}`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `${stack.stackName} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    // Publish on the topic and use of its key, for CloudWatch alarms of this account only.
    this.topic.grantPublish(
      new ServicePrincipal('cloudwatch.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    if (settings.alarmEmail) {
      this.topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    }

    const functions = stack.node
      .findAll()
      .filter((c): c is ServiceFunction => c instanceof ServiceFunction);
    const mainQueues = new Set<Queue>(props.queues.map((q) => q.queue));
    const deadLetterQueues = stack.node
      .findAll()
      .filter((c): c is Queue => c instanceof Queue && !mainQueues.has(c));

    // Lambda: errors, one alarm per function. Throttles: one alarm on the account's own
    // metric, since a function without reserved concurrency is throttled only when the
    // account's pool is spent, and then every function is (queue workers are capped by
    // their event sources, which wait instead of throttling); one more per function that
    // reserves concurrency, whose own ceiling may throttle it alone.
    for (const fn of functions) {
      const name = fn.node.id;
      this.alarm(`${name}Errors`, {
        description: `Function ${name} failed invocations (errors over 5 minutes > ${settings.alarmLambdaErrors})`,
        metric: fn.lambda.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        threshold: settings.alarmLambdaErrors,
      });
      if (fn.reservedConcurrency) {
        this.alarm(`${name}Throttles`, {
          description: `Function ${name} was throttled at its reserved concurrency of ${fn.reservedConcurrency} (throttles over 5 minutes > ${settings.alarmLambdaThrottles})`,
          metric: fn.lambda.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: settings.alarmLambdaThrottles,
        });
      }
    }
    this.alarm('LambdaThrottles', {
      description: `Lambda throttled invocations in this account and region: its concurrency is spent (throttles over 5 minutes > ${settings.alarmLambdaThrottles}; every function of the account counts, this stack's and others')`,
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        statistic: 'Sum',
        period: FIVE_MINUTES,
      }),
      threshold: settings.alarmLambdaThrottles,
    });

    // Table-stream consumers falling behind.
    for (const fn of props.streamConsumers) {
      const name = fn.node.id;
      this.alarm(`${name}IteratorAge`, {
        description: `Stream worker ${name} lags the table stream (IteratorAge max > ${settings.alarmIteratorAgeSeconds} s)`,
        metric: fn.lambda.metric('IteratorAge', {
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        threshold: settings.alarmIteratorAgeSeconds * 1000,
      });
    }

    // Dead letters waiting too long (depth > 0 alarms already exist per DLQ).
    for (const queue of deadLetterQueues) {
      const name = queue.node.path.slice(stack.node.path.length + 1).replace(/[^A-Za-z0-9]/g, '');
      this.alarm(`${name}OldestMessage`, {
        description: `A message in the dead-letter queue ${queue.node.path} is older than ${settings.alarmDeadLetterAgeSeconds} s`,
        metric: queue.metricApproximateAgeOfOldestMessage({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        threshold: settings.alarmDeadLetterAgeSeconds,
      });
    }

    // API Gateway: the stage's 5xx rate and the submit route's p99 latency.
    const apiDimensions = { ApiName: props.restApi.restApiName, Stage: props.stageName };
    const apiMetric = (metricName: string, statistic: string, extra: Record<string, string> = {}) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ...apiDimensions, ...extra },
        statistic,
        period: FIVE_MINUTES,
      });
    // The share in percent, counted as 0 below a minimum of requests: one
    // failed request out of two at night is not an outage worth a page.
    const minRequests = settings.alarmApi5xxMinRequests;
    this.alarm('Api5xxRate', {
      description: `Share of API requests answered 5xx over 5 minutes > ${settings.alarmApi5xxPercent} % (with at least ${minRequests} requests)`,
      metric: new MathExpression({
        expression: `IF(requests >= ${minRequests}, errors / requests * 100, 0)`,
        usingMetrics: {
          errors: apiMetric('5XXError', 'Sum'),
          requests: apiMetric('Count', 'Sum'),
        },
        label: `5xx % (0 below ${minRequests} requests)`,
        period: FIVE_MINUTES,
      }),
      threshold: settings.alarmApi5xxPercent,
    });
    const submitDimensions = props.submitRoute
      ? { Resource: props.submitRoute.path, Method: props.submitRoute.method }
      : undefined;
    if (submitDimensions) {
      this.alarm('SubmitLatencyP99', {
        description: `p99 latency of POST /s/{key} over 5 minutes > ${settings.alarmSubmitP99LatencyMs} ms`,
        metric: apiMetric('Latency', 'p99', submitDimensions),
        threshold: settings.alarmSubmitP99LatencyMs,
      });
    }

    // Deliveries: product metrics (EMF).
    this.alarm('WebhookFailures', {
      description: `Webhook deliveries given up (WebhookFailed over 5 minutes > ${settings.alarmWebhookFailures})`,
      metric: productMetric('WebhookFailed'),
      threshold: settings.alarmWebhookFailures,
    });
    this.alarm('EmailRejections', {
      description: `Emails refused by SES, both kinds (EmailRejected over 5 minutes > ${settings.alarmEmailRejections})`,
      metric: emailMetric('EmailRejected', 'EmailRejected (all kinds)'),
      threshold: settings.alarmEmailRejections,
    });

    // SES reputation of this stack's mail (its configuration set's rates, fractions of 1),
    // well before AWS's own review at 5 % bounces or 0.1 % complaints
    // (docs/operations.md#alarms); and a team's tenant paused by SES.
    if (props.configurationSetName) {
      const reputation = sesReputationMetrics(props.configurationSetName);
      this.alarm('SesBounceRate', {
        description: `SES bounce rate of this stack's emails > ${settings.alarmSesBounceRatePercent} % (AWS reviews the account at 5 %, may pause it at 10 %)`,
        metric: reputation.bounceRate,
        threshold: settings.alarmSesBounceRatePercent / 100,
      });
      this.alarm('SesComplaintRate', {
        description: `SES complaint rate of this stack's emails > ${settings.alarmSesComplaintRatePercent} % (AWS reviews the account at 0.1 %, may pause it at 0.5 %)`,
        metric: reputation.complaintRate,
        threshold: settings.alarmSesComplaintRatePercent / 100,
      });
    }
    // The account's own rates, the ones AWS reviews and pauses by: every email of the
    // account, whatever its configuration set (docs/operations.md#alarms).
    const account = sesReputationMetrics();
    this.alarm('SesAccountBounceRate', {
      description: `SES bounce rate of the whole account > ${settings.alarmSesBounceRatePercent} % (AWS reviews it at 5 %, may pause it at 10 %)`,
      metric: account.bounceRate,
      threshold: settings.alarmSesBounceRatePercent / 100,
    });
    this.alarm('SesAccountComplaintRate', {
      description: `SES complaint rate of the whole account > ${settings.alarmSesComplaintRatePercent} % (AWS reviews it at 0.1 %, may pause it at 0.5 %)`,
      metric: account.complaintRate,
      threshold: settings.alarmSesComplaintRatePercent / 100,
    });
    this.alarm('EmailTenantPaused', {
      description:
        "A team's emails refused because SES paused its tenant (EmailPaused over 5 minutes > 0): docs/delivery.md#one-team-cannot-pause-everyones-mail",
      metric: productMetric('EmailPaused'),
      threshold: 0,
    });
    this.alarm('EmailSendingPaused', {
      description:
        'Emails refused because SES paused sending for the account or the configuration set, not one team (EmailSendingPaused over 5 minutes > 0): docs/delivery.md#one-team-cannot-pause-everyones-mail',
      metric: productMetric('EmailSendingPaused'),
      threshold: 0,
    });
    // The lift answers 200 whatever SES said (our entry is gone): a grant SES refuses or an
    // SES that fails would go unseen but for this.
    this.alarm('SesSuppressionNotLifted', {
      description:
        "An owner's lift of a suppressed address did not reach SES's tenant list (SesSuppressionNotLifted over 5 minutes > 0): docs/delivery.md#suppressed-addresses",
      metric: productMetric('SesSuppressionNotLifted'),
      threshold: 0,
    });

    // Malware scanning (docs/uploads-and-pages.md#malware-scanning): a file whose verdict has
    // not come 30 minutes after its submission, and the plan's own trouble (a tag it could not
    // write leaves a clean file unreadable; a plan in warning or error scans badly or not at all).
    if (props.malwareScanning) {
      this.alarm('FileScanLate', {
        description:
          'Uploaded files still waiting for their malware scan 30 minutes after their submission (FileScanLate over 5 minutes > 0): docs/operations.md#alarms',
        metric: productMetric('FileScanLate'),
        threshold: 0,
      });
      this.alarm('MalwareScanPlanProblem', {
        description:
          'The GuardDuty malware protection plan of the uploads reports trouble: a failed post-scan tag, or a Warning or Error status (ScanPlanProblem over 5 minutes > 0): docs/operations.md#alarms',
        metric: productMetric('ScanPlanProblem'),
        threshold: 0,
      });
    }

    // Every alarm of the stack notifies the topic (the DLQ alarms included), when it fires
    // and when it is back to OK: a page that never says "resolved" keeps someone awake.
    const action = new SnsAction(this.topic);
    for (const alarm of stack.node.findAll().filter((c): c is Alarm => c instanceof Alarm)) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }

    this.dashboard = this.buildDashboard(
      props,
      functions,
      deadLetterQueues,
      apiMetric,
      submitDimensions,
    );
  }

  private alarm(
    id: string,
    options: { description: string; metric: IMetric; threshold: number },
  ): Alarm {
    const alarm = new Alarm(this, `${id}Alarm`, {
      alarmDescription: options.description,
      metric: options.metric,
      threshold: options.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarms.push(alarm);
    return alarm;
  }

  private buildDashboard(
    props: ObservabilityProps,
    functions: ServiceFunction[],
    deadLetterQueues: Queue[],
    apiMetric: (name: string, statistic: string, extra?: Record<string, string>) => Metric,
    submitDimensions: Record<string, string> | undefined,
  ): Dashboard {
    const width = 12;
    const height = 6;
    const submitTraffic: IMetric[] = [
      productMetric('SubmissionAccepted').with({ label: 'Accepted' }),
      searchProductMetric('SubmissionSpam', 'Spam'),
      searchProductMetric('SubmissionDropped', 'Dropped'),
      searchProductMetric('SubmissionRejected', 'Rejected'),
    ];
    if (submitDimensions) {
      submitTraffic.unshift(apiMetric('Count', 'Sum', submitDimensions).with({ label: 'Posts' }));
    }
    const latency: IMetric[] = [apiMetric('Latency', 'p99').with({ label: 'API p99' })];
    if (submitDimensions) {
      latency.push(
        apiMetric('Latency', 'p99', submitDimensions).with({ label: 'Submit p99' }),
        apiMetric('Latency', 'p50', submitDimensions).with({ label: 'Submit p50' }),
      );
    }
    return new Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown: `# ${Stack.of(this.node.scope!).stackName}\nSubmit traffic and outcomes, API latency and errors, functions, queues, deliveries. Alarms notify the topic ${this.topic.node.path}.`,
            width: 24,
            height: 2,
          }),
        ],
        [
          new GraphWidget({
            title: 'Submissions (POST /s/{key}) by outcome',
            left: submitTraffic,
            width,
            height,
          }),
          new GraphWidget({ title: 'API latency (ms)', left: latency, width, height }),
        ],
        [
          new GraphWidget({
            title: 'API errors (share of requests)',
            left: [
              apiMetric('5XXError', 'Average').with({ label: '5XXError' }),
              apiMetric('4XXError', 'Average').with({ label: '4XXError' }),
            ],
            width,
            height,
          }),
          new GraphWidget({
            title: 'Lambda errors and throttles',
            left: functions.map((fn) =>
              fn.lambda.metricErrors({ period: FIVE_MINUTES, label: `${fn.node.id} errors` }),
            ),
            right: functions.map((fn) =>
              fn.lambda.metricThrottles({ period: FIVE_MINUTES, label: `${fn.node.id} throttles` }),
            ),
            width,
            height,
          }),
        ],
        [
          new GraphWidget({
            title: 'Queue depths (visible messages)',
            left: props.queues.map((q) =>
              q.queue.metricApproximateNumberOfMessagesVisible({
                period: FIVE_MINUTES,
                statistic: 'Maximum',
                label: q.definition.name,
              }),
            ),
            right: deadLetterQueues.map((queue) =>
              queue.metricApproximateNumberOfMessagesVisible({
                period: FIVE_MINUTES,
                statistic: 'Maximum',
                label: `DLQ ${queue.node.path.split('/').slice(1, -1).join('/')}`,
              }),
            ),
            rightYAxis: { label: 'dead letters', min: 0 },
            width,
            height,
          }),
          new GraphWidget({
            title: 'Stream workers iterator age (ms)',
            left: props.streamConsumers.map((fn) =>
              fn.lambda.metric('IteratorAge', {
                period: FIVE_MINUTES,
                statistic: 'Maximum',
                label: fn.node.id,
              }),
            ),
            width,
            height,
          }),
        ],
        [
          new GraphWidget({
            title: 'Webhook deliveries',
            left: [
              productMetric('WebhookDelivered').with({ label: 'WebhookDelivered' }),
              productMetric('WebhookRetried').with({ label: 'WebhookRetried' }),
              productMetric('WebhookFailed').with({ label: 'WebhookFailed' }),
            ],
            // Ended unsent (webhook removed, plan, submission deleted): one line per reason.
            right: [searchProductMetric('WebhookCancelled', 'WebhookCancelled')],
            width,
            height,
          }),
          new GraphWidget({
            title: 'Emails',
            left: [
              emailMetric('EmailSent', 'EmailSent'),
              emailMetric('EmailRejected', 'EmailRejected'),
              emailMetric('EmailRetried', 'EmailRetried'),
            ],
            right: [
              searchProductMetric('EmailEvent', 'EmailEvent'),
              productMetric('EmailPaused'),
              productMetric('EmailSendingPaused'),
            ],
            width,
            height,
          }),
          new GraphWidget({
            title: 'SES reputation: this stack’s emails and the whole account (fraction of 1)',
            left: [
              ...(props.configurationSetName
                ? [
                    sesReputationMetrics(props.configurationSetName).bounceRate.with({
                      label: 'Bounce rate',
                    }),
                    sesReputationMetrics(props.configurationSetName).complaintRate.with({
                      label: 'Complaint rate',
                    }),
                  ]
                : []),
              sesReputationMetrics().bounceRate.with({ label: 'Account bounce rate' }),
              sesReputationMetrics().complaintRate.with({ label: 'Account complaint rate' }),
            ],
            width,
            height,
          }),
        ],
      ],
    });
  }
}
