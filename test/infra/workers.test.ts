import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { matchesPattern } from '#domain/event-filter.ts';
import { QUEUES, type QueueDefinition, WEBHOOK_LOST_RECEIVE_SLACK } from '#queues';
import { routeFunctions, routes } from '#routes';
import { INSERTED_SPAM_PATTERN, INSERTED_SUBMISSION_PATTERN } from '#store/schema.ts';
import {
  type CapSettings,
  concurrencyCap,
  dispatched,
  emailWorkerConcurrency,
  type Worker,
  workers,
} from '#workers';
import { BASELINE_ACTIONS, EXPECTED_ACTIONS, everyAccessRoutes } from './route-fixtures.ts';
import {
  cdkJsonContext,
  propertiesOf,
  resourcesOfType,
  statementsOf as statementsOfIn,
  statementsOfRole,
  synthesize,
} from './synthesize.ts';
import { probeWorkers, TRIGGER_ACTIONS } from './worker-fixtures.ts';

const built = synthesize({
  routes: everyAccessRoutes,
  workers: probeWorkers,
  // Every access kind's route and the probes, never deployed.
  context: { tracing: false },
});
const resources = built.flat.toJSON().Resources as Record<
  string,
  { Type: string; Properties: Record<string, unknown> }
>;

const statementsOf = (name: string) => statementsOfIn(built, name);

function variablesOf(name: string): Record<string, unknown> {
  const fn = resources[built.logicalId(built.functionOf(name).lambda)]!.Properties;
  return (fn.Environment as { Variables: Record<string, unknown> }).Variables;
}

const functionRef = (name: string) => built.logicalId(built.functionOf(name).lambda);
const queueArn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const serviceQueue = (name: keyof typeof QUEUES) => built.stack.queues.get(name);
const streamFailuresId = () => built.logicalId(built.stack.queues.streamFailures());
const scheduling = () => built.stack.node.findChild('Scheduling');
const invocationFailuresId = () =>
  built.logicalId(scheduling().node.findChild('InvocationFailed').node.findChild('Queue'));

function mappingsOf(name: string): Array<Record<string, unknown>> {
  return Object.values(resourcesOfType(built.flat, 'AWS::Lambda::EventSourceMapping'))
    .map(propertiesOf)
    .filter((m) => JSON.stringify(m.FunctionName) === JSON.stringify({ Ref: functionRef(name) }));
}

/** Whether the statements allow SendMessage on the queue (alone or among others in one statement). */
function sendsTo(statements: Array<{ Action: unknown; Resource: unknown }>, arn: unknown): boolean {
  return statements.some(
    (s) =>
      [s.Action].flat().includes('sqs:SendMessage') &&
      [s.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify(arn)),
  );
}

/** Dispatched queues a schedule worker also sends to: the pending sweeper hands the purger a form. */
const HANDED_ON_BY_SCHEDULE: Partial<Record<string, string[]>> = {
  pendingPurges: ['pendingSweeper'],
};

const byKind = (kind: Worker['trigger']['kind']) =>
  probeWorkers.filter((w) => w.trigger.kind === kind);

describe('one function per worker, built like a route’s', () => {
  it('the stack has one function per route or group, the fallback and one per worker', () => {
    built.all.resourceCountIs(
      'AWS::Lambda::Function',
      routeFunctions(everyAccessRoutes).length + 1 + probeWorkers.length,
    );
  });

  it.each(probeWorkers.map((w) => [w.name, w] as const))(
    '%s: nodejs24.x arm64, its memory and timeout, the shared environment (the table’s name when it uses it), JSON logs',
    (name, worker) => {
      const fn = resources[functionRef(name)]!.Properties;
      expect(fn).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: worker.memoryMb,
        Timeout: worker.timeoutSeconds,
        Handler: 'index.handler',
      });
      expect(variablesOf(name)).toMatchObject({
        FREE_FORM_LIMIT: String(cdkJsonContext.freeFormLimit),
        LOG_LEVEL: String(cdkJsonContext.logLevel),
        NODE_OPTIONS: '--enable-source-maps',
      });
      // As functions.test's check of every function: no table access, no table name.
      const usesTable = worker.access.some((a) => a.startsWith('table:') || a === 'forms:update');
      if (usesTable)
        expect(variablesOf(name).TABLE_NAME).toEqual({
          Ref: built.logicalId(built.stack.storage.table),
        });
      else expect(variablesOf(name)).not.toHaveProperty('TABLE_NAME');
      expect((fn.LoggingConfig as Record<string, unknown>).LogGroup).toEqual({
        Ref: built.logicalId(built.functionOf(name).logGroup),
      });
    },
  );
});

describe('tableStream trigger', () => {
  it.each(byKind('tableStream').map((w) => [w.name, w] as const))(
    '%s reads the table stream, filtered, bisecting, with partial failures and a failure queue',
    (name, worker) => {
      if (worker.trigger.kind !== 'tableStream') throw new Error('fixture');
      const mappings = mappingsOf(name);
      expect(mappings).toHaveLength(1);
      expect(mappings[0]).toEqual({
        FunctionName: { Ref: functionRef(name) },
        EventSourceArn: {
          'Fn::GetAtt': [built.logicalId(built.stack.storage.table), 'StreamArn'],
        },
        StartingPosition: 'LATEST',
        BatchSize: worker.trigger.batchSize,
        MaximumRetryAttempts: worker.trigger.maxAttempts - 1,
        MaximumRecordAgeInSeconds: worker.trigger.maxRecordAgeSeconds,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        FilterCriteria: {
          Filters: worker.trigger.filters.map((filter) => ({ Pattern: JSON.stringify(filter) })),
        },
        DestinationConfig: { OnFailure: { Destination: queueArn(streamFailuresId()) } },
      });
    },
  );

  it('the fan-out fixture filters with the very pattern lambdas/ declares', () => {
    const [mapping] = mappingsOf('probeFanout');
    expect((mapping!.FilterCriteria as { Filters: Array<{ Pattern: string }> }).Filters).toEqual([
      { Pattern: JSON.stringify(INSERTED_SUBMISSION_PATTERN) },
    ]);
  });

  it('the stream-failure queue keeps failed batches 14 days, encrypted, TLS only', () => {
    const failures = resources[streamFailuresId()]!.Properties;
    expect(failures).toMatchObject({
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
    });
    expect(failures).not.toHaveProperty('RedrivePolicy');
  });
});

/** The cap settings of a synth with no `-c`: cdk.json over every default. */
const defaultCaps = cdkJsonContext as unknown as CapSettings;

describe('queue trigger and the queues of lambdas/queues.ts', () => {
  it.each([...byKind('queue'), ...byKind('dispatched')].map((w) => [w.name, w] as const))(
    '%s consumes its queue with partial batch failures, at most its cap of invocations at once',
    (name, worker) => {
      if (worker.trigger.kind !== 'queue' && worker.trigger.kind !== 'dispatched')
        throw new Error('fixture');
      const mappings = mappingsOf(name);
      expect(mappings).toHaveLength(1);
      expect(mappings[0]).toEqual({
        FunctionName: { Ref: functionRef(name) },
        EventSourceArn: queueArn(built.logicalId(serviceQueue(worker.trigger.queue).queue)),
        BatchSize: worker.trigger.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: {
          MaximumConcurrency: concurrencyCap(worker.trigger.maxConcurrency, defaultCaps),
        },
      });
      const definition = QUEUES[worker.trigger.queue];
      expect(variablesOf(name)[definition.urlVariable], 'URL for ChangeMessageVisibility').toEqual({
        Ref: built.logicalId(serviceQueue(worker.trigger.queue).queue),
      });
    },
  );

  it.each(Object.entries(QUEUES))(
    '%s: SSE, visibility timeout from the definition, redrive to its DLQ after maxReceiveCount',
    (name, definition) => {
      const built_ = serviceQueue(name as keyof typeof QUEUES);
      // A FIFO queue (lambdas/queues.ts `fifo`) and its FIFO dead-letter queue; ids the sender's.
      const fifo = (definition as QueueDefinition).fifo
        ? { FifoQueue: true, ContentBasedDeduplication: false }
        : {};
      expect(resources[built.logicalId(built_.queue)]!.Properties).toEqual({
        ...fifo,
        SqsManagedSseEnabled: true,
        VisibilityTimeout: definition.visibilityTimeoutSeconds,
        // Four days: longer than any retry window.
        MessageRetentionPeriod: 4 * 24 * 3600,
        RedrivePolicy: {
          deadLetterTargetArn: queueArn(built.logicalId(built_.deadLetterQueue)),
          maxReceiveCount: definition.maxReceiveCount({
            webhookRetryDelaysSeconds: cdkJsonContext.webhookRetryDelaysSeconds as number[],
          }),
        },
      });
      expect(resources[built.logicalId(built_.deadLetterQueue)]!.Properties).toEqual({
        ...((definition as QueueDefinition).fifo ? { FifoQueue: true } : {}),
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: 14 * 24 * 3600,
      });
    },
  );

  it('every queue refuses requests without TLS', () => {
    const queues = Object.keys(resourcesOfType(built.template, 'AWS::SQS::Queue'));
    // Each queue and its DLQ, the stream-failure queue, the schedule DLQ, the schedule targets' failure queue.
    expect(queues.length).toBe(Object.keys(QUEUES).length * 2 + 3);
    const policies = Object.values(resourcesOfType(built.template, 'AWS::SQS::QueuePolicy')).map(
      propertiesOf,
    );
    for (const id of queues) {
      const policy = policies.find((p) => JSON.stringify(p.Queues).includes(`"${id}"`)) as
        | { PolicyDocument: { Statement: Array<Record<string, unknown>> } }
        | undefined;
      expect(policy, `${id} queue policy`).toBeDefined();
      expect(policy!.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('a visibility timeout under 6 × the consumer’s timeout stops the synth', () => {
    const seconds = QUEUES.webhooks.visibilityTimeoutSeconds;
    const consumer = (timeoutSeconds: number): Worker => ({
      name: 'slowWorker',
      handler: 'http/forms/get-form.ts',
      memoryMb: 256,
      timeoutSeconds,
      access: [],
      trigger: { kind: 'queue', queue: 'webhooks', batchSize: 1, maxConcurrency: 2 },
    });
    // Shorter than the timeout itself, and merely under 6 ×: both refused.
    for (const timeout of [seconds + 1, Math.floor(seconds / 6) + 1]) {
      expect(() => synthesize({ workers: [consumer(timeout)] })).toThrow(
        `visibility timeout of ${seconds} s, less than 6 × the ${timeout} s timeout of its consumer "slowWorker" (${6 * timeout} s)`,
      );
    }
    expect(() => synthesize({ workers: [consumer(Math.floor(seconds / 6))] })).not.toThrow();
  });

  it('every queue of the real stack is at least 6 × its consumers’ timeouts', () => {
    for (const worker of workers) {
      if (worker.trigger.kind !== 'queue' && worker.trigger.kind !== 'dispatched') continue;
      expect(
        QUEUES[worker.trigger.queue].visibilityTimeoutSeconds,
        `${worker.trigger.queue} queue vs ${worker.name}`,
      ).toBeGreaterThanOrEqual(6 * worker.timeoutSeconds);
    }
  });
});

describe('schedule trigger', () => {
  const executionRoleId = () => built.logicalId(scheduling().node.findChild('ExecutionRole'));
  const scheduleDlqId = () => built.logicalId(scheduling().node.findChild('DeadLetters'));

  it('the scheduler role may invoke each schedule target (unqualified) and send to the schedule DLQ, nothing else', () => {
    const statements = statementsOfRole(built, executionRoleId());
    const invoke = statements.filter((s) => s.Action === 'lambda:InvokeFunction');
    expect(invoke.every((s) => s.Effect === 'Allow')).toBe(true);
    // In any order: the policy lists them as the stack adds them.
    const byJson = (list: unknown[]) => list.map((item) => JSON.stringify(item)).sort();
    expect(byJson(invoke.flatMap((s) => [s.Resource].flat()))).toEqual(
      byJson(byKind('schedule').map((w) => ({ 'Fn::GetAtt': [functionRef(w.name), 'Arn'] }))),
    );
    expect(statements.filter((s) => s.Action !== 'lambda:InvokeFunction')).toEqual([
      { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: queueArn(scheduleDlqId()) },
    ]);
  });

  it('the schedule DLQ keeps failed invocations 14 days, encrypted', () => {
    expect(resources[scheduleDlqId()]!.Properties).toEqual({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
  });

  it('functions that manage schedules get each target’s ARN and the schedule DLQ ARN; others do not', () => {
    const managers = [...everyAccessRoutes, ...probeWorkers].filter((f) =>
      f.access.includes('schedules:manage'),
    );
    expect(managers.length).toBeGreaterThan(0);
    for (const manager of managers) {
      expect(variablesOf(manager.name)).toMatchObject({
        PROBE_FORM_CLOSER_ARN: { 'Fn::GetAtt': [functionRef('probeFormCloser'), 'Arn'] },
        SCHEDULE_DLQ_ARN: queueArn(scheduleDlqId()),
      });
    }
    for (const other of [...everyAccessRoutes, ...probeWorkers].filter(
      (f) => !f.access.includes('schedules:manage'),
    )) {
      expect(variablesOf(other.name)).not.toHaveProperty('PROBE_FORM_CLOSER_ARN');
      expect(variablesOf(other.name)).not.toHaveProperty('SCHEDULE_DLQ_ARN');
    }
  });

  it('a schedule worker alone builds Scheduling (group, role, DLQ, invocation-failure queue) without any manager', () => {
    const alone = synthesize({ workers: byKind('schedule'), routes: [] });
    alone.template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    // Plus each queue a schedule worker sends to (the pending sweeper's), with its DLQ.
    const sentTo = new Set(
      byKind('schedule').flatMap((w) => w.access.filter((a) => /^queue:\w+:send$/.test(a))),
    );
    alone.template.resourceCountIs('AWS::SQS::Queue', 2 + 2 * sentTo.size);
  });
});

describe('least privilege: access plus what the trigger needs, nothing more', () => {
  it.each(probeWorkers.map((w) => [w.name, w] as const))(
    '%s has exactly the expected actions',
    (name, worker) => {
      const expected = [
        ...new Set([
          ...BASELINE_ACTIONS,
          ...worker.access.flatMap((kind) => EXPECTED_ACTIONS[kind]),
          ...TRIGGER_ACTIONS[worker.trigger.kind],
        ]),
      ].sort();
      const actual = [...new Set(statementsOf(name).flatMap((s) => [s.Action].flat()))].sort();
      expect(actual).toEqual(expected);
    },
  );

  it.each(probeWorkers.map((w) => [w.name, w] as const))(
    '%s: SQS actions reach only the queues it sends to, consumes, or fails over to',
    (name, worker) => {
      const allowed = new Set<string>();
      for (const kind of worker.access) {
        const match = /^queue:(\w+):(send|deadLetter)$/.exec(kind);
        if (!match) continue;
        const queue = serviceQueue(match[1] as keyof typeof QUEUES);
        allowed.add(built.logicalId(match[2] === 'send' ? queue.queue : queue.deadLetterQueue));
      }
      if (worker.trigger.kind === 'queue' || worker.trigger.kind === 'dispatched')
        allowed.add(built.logicalId(serviceQueue(worker.trigger.queue).queue));
      if (worker.trigger.kind === 'tableStream') allowed.add(streamFailuresId());
      if (worker.trigger.kind === 'schedule') allowed.add(invocationFailuresId());
      for (const statement of statementsOf(name)) {
        if (![statement.Action].flat().some((a) => a.startsWith('sqs:'))) continue;
        for (const resource of [statement.Resource].flat()) {
          const id = (resource as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];
          expect(id && allowed.has(id), `${name}: sqs on ${JSON.stringify(resource)}`).toBe(true);
        }
      }
    },
  );

  it('the only "*" resource a worker holds is dynamodb:ListStreams (no resource-level form)', () => {
    for (const worker of probeWorkers) {
      for (const statement of statementsOf(worker.name)) {
        if (JSON.stringify(statement.Resource) === '"*"')
          expect(statement.Action, worker.name).toBe('dynamodb:ListStreams');
      }
    }
  });

  it('queue:<name>:send gives the URL variable and SendMessage on that queue only', () => {
    const variables = variablesOf('probeEnqueue');
    expect(variables[QUEUES.emails.urlVariable]).toEqual({
      Ref: built.logicalId(serviceQueue('emails').queue),
    });
    expect(variables).not.toHaveProperty(QUEUES.webhooks.urlVariable);
    const sqs = statementsOf('probeEnqueue').filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('sqs:')),
    );
    expect(sqs).toEqual([
      {
        Effect: 'Allow',
        Action: 'sqs:SendMessage',
        Resource: queueArn(built.logicalId(serviceQueue('emails').queue)),
      },
    ]);
  });
});

describe('the deployed tables', () => {
  it('build a queue only when some worker or access uses it', () => {
    const real = synthesize();
    const functions = [...routes, ...workers];
    const uses = (name: string) =>
      functions.some((f) => f.access.includes(`queue:${name}:send` as never)) ||
      workers.some(
        (w) =>
          (w.trigger.kind === 'queue' || w.trigger.kind === 'dispatched') &&
          w.trigger.queue === name,
      );
    const schedules =
      functions.some((f) => f.access.includes('schedules:manage')) ||
      workers.some((w) => w.trigger.kind === 'schedule');
    const streams = workers.some((w) => w.trigger.kind === 'tableStream');
    const scheduleTargets = workers.some((w) => w.trigger.kind === 'schedule');
    const expected =
      Object.keys(QUEUES).filter(uses).length * 2 +
      (schedules ? 1 : 0) +
      (scheduleTargets ? 1 : 0) +
      (streams ? 1 : 0);
    real.template.resourceCountIs('AWS::SQS::Queue', expected);
    real.all.resourceCountIs(
      'AWS::Lambda::EventSourceMapping',
      workers.filter((w) => w.trigger.kind !== 'schedule').length,
    );
  });

  it('the spam purger runs on the stored spam the dispatcher hands it, from its FIFO queue, with its settings', () => {
    const real = synthesize();
    const purger = real.functionOf('spamPurger');
    const mappings = Object.values(resourcesOfType(real.flat, 'AWS::Lambda::EventSourceMapping'))
      .map(propertiesOf)
      .filter(
        (m) =>
          JSON.stringify(m.FunctionName) === JSON.stringify({ Ref: real.logicalId(purger.lambda) }),
      );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toMatchObject({
      EventSourceArn: queueArn(real.logicalId(real.stack.queues.get('spamPurges').queue)),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(dispatched.find((d) => d.name === 'spamPurger')?.trigger.filter).toEqual(
      INSERTED_SPAM_PATTERN,
    );
    const realResources = real.flat.toJSON().Resources as typeof resources;
    const variables = realResources[real.logicalId(purger.lambda)]!.Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    expect(variables.Variables).toMatchObject({
      SPAM_RETENTION_DAYS: String(cdkJsonContext.spamRetentionDays),
      SPAM_MONTHLY_CAP_PER_FORM: String(cdkJsonContext.spamMonthlyCapPerForm),
    });
  });

  it('every dead-letter queue has an alarm on its first message', () => {
    const real = synthesize();
    const deadLetterQueues = [
      ...real.stack.queues.all().map((queue) => queue.deadLetterQueue),
      real.stack.queues.streamFailures(),
      real.stack.node.findChild('Scheduling').node.findChild('DeadLetters') as Queue,
      real.stack.node
        .findChild('Scheduling')
        .node.findChild('InvocationFailed')
        .node.findChild('Queue') as Queue,
    ];
    const alarms = Object.values(resourcesOfType(real.template, 'AWS::CloudWatch::Alarm')).map(
      propertiesOf,
    );
    for (const queue of deadLetterQueues) {
      const id = real.logicalId(queue);
      const alarm = alarms.find(
        (a) =>
          JSON.stringify(a.Dimensions) ===
          JSON.stringify([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }]),
      );
      expect(alarm, `alarm on ${id}`).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    }
    expect(deadLetterQueues.length).toBeGreaterThanOrEqual(3);
  });

  it('the email worker may send as the SES identity only, from context', () => {
    const real = synthesize({ context: { emailSenderAddress: 'forms@mail.acme.test' } });
    const role = real.logicalId(real.functionOf('emailWorker').role);
    const ses = statementsOfRole(real, role).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('ses:')),
    );
    // Sending as the identity (with the configuration set), and the teams' tenants
    // (docs/delivery.md#one-team-cannot-pause-everyones-mail): nothing else of SES.
    const plainSend = ses.filter((s) => s.Action === 'ses:SendEmail');
    expect(plainSend).toHaveLength(1);
    expect(JSON.stringify(plainSend[0]!.Resource)).toContain(':identity/mail.acme.test');
    const actions = new Set(ses.flatMap((s) => [s.Action].flat()));
    expect([...actions].sort()).toEqual([
      'ses:CreateTenant',
      'ses:CreateTenantResourceAssociation',
      'ses:GetTenant',
      'ses:SendEmail',
      'ses:UpdateReputationEntityPolicy',
    ]);
    const tenantStatement = ses.find((s) => [s.Action].flat().includes('ses:CreateTenant'));
    expect(JSON.stringify(tenantStatement?.Resource)).toContain(':tenant/*');
    // The sign-in mailer sends as the identity, never as a team's tenant.
    const mailerRole = real.logicalId(real.functionOf('signInMailer').role);
    expect(JSON.stringify(statementsOfRole(real, mailerRole))).not.toContain('Tenant');
    const other = synthesize({ context: { sesIdentity: 'acme.test' } });
    const otherRole = other.logicalId(other.functionOf('emailWorker').role);
    expect(JSON.stringify(statementsOfRole(other, otherRole))).toContain(':identity/acme.test');
    for (const name of ['streamDispatcher', 'webhookWorker', 'submit']) {
      const id = real.logicalId(real.functionOf(name).role);
      expect(JSON.stringify(statementsOfRole(real, id)), name).not.toContain('ses:');
    }
  });

  it('the webhook retry schedule comes from context; loopback targets never from a deployment', () => {
    const custom = synthesize({
      context: { webhookRetryDelaysSeconds: '10,60', webhookAllowLoopback: 'true' },
    });
    const fn = custom.flat.toJSON().Resources[
      custom.logicalId(custom.functionOf('webhookWorker').lambda)
    ].Properties as { Environment: { Variables: Record<string, unknown> } };
    expect(fn.Environment.Variables).toMatchObject({
      WEBHOOK_RETRY_DELAYS_SECONDS: '10,60',
      WEBHOOK_ALLOW_LOOPBACK: 'false',
    });
    const queue = custom.template.toJSON().Resources[
      custom.logicalId(custom.stack.queues.get('webhooks').queue)
    ].Properties as { RedrivePolicy: { maxReceiveCount: number } };
    // Two delays: three attempts, plus the slack for receives that sent nothing.
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(3 + WEBHOOK_LOST_RECEIVE_SLACK);
  });

  it('the webhooks queue leaves slack for receives that sent nothing: attempts + 5, never under AWS’s advised 5', () => {
    // Eight attempts by default (seven delays): a throttled or crashed receive must not cut them short.
    const real = synthesize();
    const redriveOf = (synthesized: typeof real) =>
      (
        synthesized.template.toJSON().Resources[
          synthesized.logicalId(synthesized.stack.queues.get('webhooks').queue)
        ].Properties as { RedrivePolicy: { maxReceiveCount: number } }
      ).RedrivePolicy.maxReceiveCount;
    expect(WEBHOOK_LOST_RECEIVE_SLACK).toBe(5);
    expect(redriveOf(real)).toBe(
      (cdkJsonContext.webhookRetryDelaysSeconds as number[]).length + 1 + 5,
    );
    // The shortest schedule (one delay, two attempts) still allows 7 receives: over AWS's 5.
    expect(redriveOf(synthesize({ context: { webhookRetryDelaysSeconds: '60' } }))).toBe(7);
  });

  it('only the webhook worker may send to the webhooks DLQ: its URL variable and SendMessage on that DLQ only', () => {
    const real = synthesize();
    const realResources = real.flat.toJSON().Resources as typeof resources;
    const webhooks = real.stack.queues.get('webhooks');
    const dlqArn = queueArn(real.logicalId(webhooks.deadLetterQueue));
    const sqsOf = (name: string) =>
      statementsOfRole(real, real.logicalId(real.functionOf(name).role)).filter((s) =>
        [s.Action].flat().some((a) => a.startsWith('sqs:')),
      );
    const variablesOfReal = (name: string) =>
      (
        realResources[real.logicalId(real.functionOf(name).lambda)]!.Properties.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
    expect(sendsTo(sqsOf('webhookWorker'), dlqArn)).toBe(true);
    expect(variablesOfReal('webhookWorker')[QUEUES.webhooks.deadLetterUrlVariable]).toEqual({
      Ref: real.logicalId(webhooks.deadLetterQueue),
    });
    for (const fn of [...routes, ...workers]) {
      if (fn.name === 'webhookWorker') continue;
      expect(JSON.stringify(sqsOf(fn.name)), fn.name).not.toContain(
        `"${real.logicalId(webhooks.deadLetterQueue)}"`,
      );
      expect(variablesOfReal(fn.name), fn.name).not.toHaveProperty(
        QUEUES.webhooks.deadLetterUrlVariable,
      );
    }
  });
});

describe('the table stream read twice at most; the other consumers fed by the dispatcher', () => {
  const real = synthesize();
  const realResources = real.flat.toJSON().Resources as typeof resources;
  const tableStreamArn = {
    'Fn::GetAtt': [real.logicalId(real.stack.storage.table), 'StreamArn'],
  };
  const realMappings = Object.values(
    resourcesOfType(real.flat, 'AWS::Lambda::EventSourceMapping'),
  ).map(propertiesOf);
  const realRef = (name: string) => ({ Ref: real.logicalId(real.functionOf(name).lambda) });
  const realSqsOf = (name: string) =>
    statementsOfRole(real, real.logicalId(real.functionOf(name).role)).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('sqs:')),
    );

  it('two event source mappings read the stream: the dispatcher’s and the summary’s', () => {
    const readers = realMappings.filter(
      (m) => JSON.stringify(m.EventSourceArn) === JSON.stringify(tableStreamArn),
    );
    expect(readers.map((m) => m.FunctionName)).toEqual(
      expect.arrayContaining([realRef('streamDispatcher'), realRef('summaryRollup')]),
    );
    expect(readers).toHaveLength(2);
  });

  it('the dispatcher’s mapping holds at most 5 filters (Lambda’s default quota), which take every record any consumer it serves wants', () => {
    const mapping = realMappings.find(
      (m) => JSON.stringify(m.FunctionName) === JSON.stringify(realRef('streamDispatcher')),
    )!;
    const patterns = (
      mapping.FilterCriteria as { Filters: Array<{ Pattern: string }> }
    ).Filters.map((f) => JSON.parse(f.Pattern));
    expect(patterns.length).toBeLessThanOrEqual(5);
    // A record each consumer wants, and one none wants.
    const wanted = [
      { eventName: 'INSERT', dynamodb: { NewImage: { entity: { S: 'submission' } } } },
      {
        eventName: 'INSERT',
        dynamodb: { NewImage: { entity: { S: 'submission' }, isSpam: { BOOL: true } } },
      },
      { eventName: 'REMOVE', dynamodb: { OldImage: { entity: { S: 'form' } } } },
      {
        eventName: 'MODIFY',
        dynamodb: { NewImage: { entity: { S: 'form' }, retentionDays: { N: '30' } } },
      },
      // A pending submission confirmed by its visitor (docs/submit.md#confirm-by-email).
      {
        eventName: 'MODIFY',
        dynamodb: {
          NewImage: {
            entity: { S: 'submission' },
            confirmation: { M: { status: { S: 'confirmed' } } },
          },
          OldImage: { confirmation: { M: { status: { S: 'pending' } } } },
        },
      },
    ];
    for (const record of wanted) {
      expect(
        patterns.some((p) => matchesPattern(record, p)),
        JSON.stringify(record),
      ).toBe(true);
    }
    const unwanted = {
      eventName: 'MODIFY',
      dynamodb: { NewImage: { entity: { S: 'submission' } } },
    };
    expect(patterns.some((p) => matchesPattern(unwanted, p))).toBe(false);
    expect(dispatched.length).toBe(4);
    expect(patterns).toContainEqual(JSON.parse(JSON.stringify(INSERTED_SUBMISSION_PATTERN)));
  });

  it('each reader gives up a record at 6 hours, well inside the stream’s 24 h, with bisect, partial failures and the failure queue', () => {
    for (const name of ['streamDispatcher', 'summaryRollup']) {
      const mapping = realMappings.find(
        (m) => JSON.stringify(m.FunctionName) === JSON.stringify(realRef(name)),
      )!;
      expect(mapping, name).toMatchObject({
        MaximumRecordAgeInSeconds: 6 * 3600,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: {
          OnFailure: { Destination: queueArn(real.logicalId(real.stack.queues.streamFailures())) },
        },
      });
    }
  });

  it.each(dispatched.map((d) => [d.name, d.trigger.queue] as const))(
    '%s reads its own FIFO queue (%s), which only the dispatcher, the replayer (and the pending sweeper, its form handed on at its schedule) send to',
    (name, queueName) => {
      const queue = real.stack.queues.get(queueName);
      expect(realResources[real.logicalId(queue.queue)]!.Properties).toMatchObject({
        FifoQueue: true,
        ContentBasedDeduplication: false,
      });

      const senders = [...routes, ...workers]
        .filter((fn) =>
          JSON.stringify(realSqsOf(fn.name)).includes(`"${real.logicalId(queue.queue)}"`),
        )
        .filter((fn) => fn.name !== name)
        .map((fn) => fn.name)
        .sort();
      expect(senders).toEqual(
        [...(HANDED_ON_BY_SCHEDULE[queueName] ?? []), 'streamDispatcher', 'streamReplayer'].sort(),
      );
      const arn = queueArn(real.logicalId(queue.queue));
      expect(sendsTo(realSqsOf('streamDispatcher'), arn)).toBe(true);
      expect(sendsTo(realSqsOf('streamReplayer'), arn)).toBe(true);
      expect(mappingsOfReal(name)).toMatchObject([
        { EventSourceArn: queueArn(real.logicalId(queue.queue)) },
      ]);
    },
  );

  it('the replayer holds exactly the dispatcher’s grants', () => {
    const dispatcher = workers.find((w) => w.name === 'streamDispatcher')!;
    const replayer = workers.find((w) => w.name === 'streamReplayer')!;
    expect(replayer.access).toEqual(dispatcher.access);
  });

  it('a dispatched worker on a queue that is not FIFO stops the synth', () => {
    const unordered: Worker = {
      name: 'unorderedConsumer',
      handler: 'http/forms/get-form.ts',
      memoryMb: 256,
      timeoutSeconds: 10,
      access: [],
      trigger: {
        kind: 'dispatched',
        filter: INSERTED_SPAM_PATTERN,
        queue: 'emails',
        attributes: ['formId'],
        batchSize: 1,
        maxConcurrency: 2,
      },
    };
    expect(() => synthesize({ workers: [unordered] })).toThrow(
      'Queue "emails" of the dispatched worker "unorderedConsumer" must be FIFO',
    );
  });

  function mappingsOfReal(name: string) {
    return realMappings.filter(
      (m) => JSON.stringify(m.FunctionName) === JSON.stringify(realRef(name)),
    );
  }
});

describe('every SQS event source is capped', () => {
  const capOf = (synthesized: ReturnType<typeof synthesize>, name: string) =>
    (
      Object.values(resourcesOfType(synthesized.flat, 'AWS::Lambda::EventSourceMapping'))
        .map(propertiesOf)
        .find(
          (m) =>
            JSON.stringify(m.FunctionName) ===
            JSON.stringify({ Ref: synthesized.logicalId(synthesized.functionOf(name).lambda) }),
        )!.ScalingConfig as { MaximumConcurrency: number }
    ).MaximumConcurrency;

  it('each queue consumer of the real stack has a maximum concurrency of 2 to 1,000', () => {
    const real = synthesize();
    const consumers = workers.filter(
      (w) => w.trigger.kind === 'queue' || w.trigger.kind === 'dispatched',
    );
    expect(consumers.length).toBeGreaterThanOrEqual(9);
    for (const worker of consumers) {
      const cap = capOf(real, worker.name);
      expect(cap, worker.name).toBeGreaterThanOrEqual(2);
      expect(cap, worker.name).toBeLessThanOrEqual(1000);
    }
  });

  it('the email worker is sized to the SES rate: batch × invocations ≤ the rate (14 a second by default)', () => {
    const email = workers.find((w) => w.name === 'emailWorker')!;
    if (email.trigger.kind !== 'queue') throw new Error('the email worker reads a queue');
    const batch = email.trigger.batchSize;
    const real = synthesize();
    expect(cdkJsonContext.sesSendRatePerSecond).toBe(14);
    expect(capOf(real, 'emailWorker')).toBe(2);
    expect(batch * capOf(real, 'emailWorker')).toBeLessThanOrEqual(14);
    // A larger quota: ⌊100 / 5⌋ = 20 invocations of 5, 100 emails at once.
    const larger = synthesize({ context: { sesSendRatePerSecond: '100' } });
    expect(capOf(larger, 'emailWorker')).toBe(emailWorkerConcurrency(100));
    expect(batch * capOf(larger, 'emailWorker')).toBeLessThanOrEqual(100);
    // The sandbox's 1 a second still runs Lambda's least, 2 (the worker's pacing keeps the rate).
    expect(capOf(synthesize({ context: { sesSendRatePerSecond: '1' } }), 'emailWorker')).toBe(2);
  });

  it('the webhook worker takes 5 by default, and the deployer’s webhookWorkerMaxConcurrency', () => {
    expect(capOf(synthesize(), 'webhookWorker')).toBe(5);
    expect(
      capOf(synthesize({ context: { webhookWorkerMaxConcurrency: '40' } }), 'webhookWorker'),
    ).toBe(40);
    expect(() => synthesize({ context: { webhookWorkerMaxConcurrency: '1' } })).toThrow(
      'CDK context "webhookWorkerMaxConcurrency" must be a whole number >= 2',
    );
    expect(() => synthesize({ context: { webhookWorkerMaxConcurrency: '1001' } })).toThrow(
      'must be at most 1000',
    );
  });
});
