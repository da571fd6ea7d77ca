import { describe, expect, it } from 'vitest';
import { fallbackRoute, type Route, routeFunctions, routes } from '#routes';
import { BASELINE_ACTIONS, EXPECTED_ACTIONS, everyAccessRoutes } from './route-fixtures.ts';
import {
  cdkJsonContext,
  type PolicyStatement,
  propertiesOf,
  resourcesOfType,
  statementsOf,
  synthesize,
} from './synthesize.ts';

const built = synthesize({
  routes: everyAccessRoutes,
  context: { tracing: false },
});
const resources = built.all.toJSON().Resources as Record<
  string,
  { Type: string; Properties: never }
>;

function actionsOf(statements: PolicyStatement[]): string[] {
  return [...new Set(statements.flatMap((s) => [s.Action].flat()))].sort();
}

/** A function's properties, with values of other stacks as their own stacks name them. */
function functionProperties(name: string): Record<string, unknown> {
  const fn = built.functionOf(name).lambda;
  return built.resolved(fn, resources[built.logicalId(fn)]!.Properties);
}

/** How the group's CloudFormation-generated name appears in a schedule ARN: its Ref. */
function scheduleGroupName(): string {
  const groups = Object.keys(resourcesOfType(built.template, 'AWS::Scheduler::ScheduleGroup'));
  expect(groups, 'one schedule group once a route manages schedules').toHaveLength(1);
  return JSON.stringify({ Ref: groups[0]! });
}

/** Each function once: a route's own, a group's (with every grant of its routes), the fallback. */
const allFunctions: Array<Pick<Route, 'name' | 'memoryMb' | 'timeoutSeconds' | 'access'>> = [
  ...routeFunctions(everyAccessRoutes),
  fallbackRoute,
];

describe('every function', () => {
  it.each(allFunctions.map((route) => [route.name, route] as const))(
    '%s runs nodejs24.x on arm64 with its route’s memory and timeout',
    (name, route) => {
      const fn = functionProperties(name);
      expect(fn.Runtime, `${name} runtime`).toBe('nodejs24.x');
      expect(fn.Architectures, `${name} architecture`).toEqual(['arm64']);
      expect(fn.MemorySize, `${name} memory from the route table`).toBe(route.memoryMb);
      expect(fn.Timeout, `${name} timeout from the route table`).toBe(route.timeoutSeconds);
      expect(fn.Handler, `${name} handler: ESM bundle exporting handler`).toBe('index.handler');
    },
  );

  it.each(allFunctions.map((route) => [route.name] as const))(
    '%s gets the plan limits from context, its log level and source maps',
    (name) => {
      const variables = (
        functionProperties(name).Environment as { Variables: Record<string, unknown> }
      ).Variables;
      expect(variables, `${name} environment`).toMatchObject({
        FREE_FORM_LIMIT: String(cdkJsonContext.freeFormLimit),
        FREE_MONTHLY_SUBMISSIONS: String(cdkJsonContext.freeMonthlySubmissions),
        PRO_MONTHLY_SUBMISSIONS: String(cdkJsonContext.proMonthlySubmissions),
        MANAGEMENT_RATE_PER_MINUTE: String(cdkJsonContext.managementRatePerMinute),
        LOG_LEVEL: String(cdkJsonContext.logLevel),
        NODE_OPTIONS: '--enable-source-maps',
      });
      expect(variables, 'S3_FORCE_PATH_STYLE is for the local emulator only').not.toHaveProperty(
        'S3_FORCE_PATH_STYLE',
      );
    },
  );

  it.each(allFunctions.map((route) => [route.name] as const))(
    '%s logs JSON to its own log group with the configured retention',
    (name) => {
      const fn = built.functionOf(name);
      const logging = functionProperties(name).LoggingConfig as Record<string, unknown>;
      expect(logging.LogFormat, `${name} log format`).toBe('JSON');
      expect(logging.LogGroup, `${name} must log to its own group`).toEqual({
        Ref: built.logicalId(fn.logGroup),
      });
      expect(resources[built.logicalId(fn.logGroup)]!.Properties).toMatchObject({
        RetentionInDays: Number(cdkJsonContext.logRetentionDays),
      });
    },
  );

  it('deployers set the plan limits with -c (strings) and they reach the functions', () => {
    const custom = synthesize({ context: { freeFormLimit: '5', proMonthlySubmissions: '20000' } });
    for (const fn of Object.values(resourcesOfType(custom.all, 'AWS::Lambda::Function'))) {
      const variables = (propertiesOf(fn).Environment as { Variables: Record<string, unknown> })
        .Variables;
      expect(variables).toMatchObject({ FREE_FORM_LIMIT: '5', PRO_MONTHLY_SUBMISSIONS: '20000' });
    }
  });

  it.each([
    [{ freeFormLimit: 'three' }, /freeFormLimit/],
    [{ logRetentionDays: 31 }, /logRetentionDays/],
    [{ logLevel: 'verbose' }, /logLevel/],
    [{ baseUrl: 'http://insecure.example.com' }, /baseUrl/],
  ])('a bad context value %j stops the synth and names the key', (context, message) => {
    expect(() => synthesize({ context })).toThrow(message);
  });

  it('tracing turns on X-Ray for functions and the stage', () => {
    const traced = synthesize({ context: { tracing: true } });
    for (const fn of Object.values(resourcesOfType(traced.all, 'AWS::Lambda::Function'))) {
      expect(propertiesOf(fn).TracingConfig).toEqual({ Mode: 'Active' });
    }
    traced.all.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
  });
});

describe('grants follow the route’s access list, and nothing more', () => {
  it('a route that only reads may update RATE# items and write its caller’s records, nothing else', () => {
    const statements = statementsOf(built, 'getSubmission').filter((s) =>
      [s.Action].flat().includes('dynamodb:UpdateItem'),
    );
    // A key's first request of a day writes its day of use (a transaction on APIKEY# and
    // TEAM# items), a session's request its last use: without this grant the read-only
    // routes answered 500 on AWS on those requests (DynamoDB Local checks no IAM).
    expect(
      statements.map((s) => (s as { Condition?: unknown }).Condition),
      'getSubmission UpdateItem statements',
    ).toEqual([
      { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      {
        'ForAllValues:StringLike': {
          'dynamodb:LeadingKeys': ['APIKEY#*', 'TEAM#*', 'MEMBERSHIP#*'],
        },
      },
    ]);
  });

  it('every function serving a management route may write what authenticating its caller writes', () => {
    const management = routeFunctions(routes).filter((spec) =>
      spec.routes.some((route) => route.auth === 'apiKey'),
    );
    expect(management.length).toBeGreaterThan(5);
    for (const spec of management) {
      const writes = statementsOf(built, spec.routes[0]!.name).filter(
        (s) =>
          [s.Action].flat().includes('dynamodb:PutItem') &&
          [s.Action].flat().includes('dynamodb:UpdateItem'),
      );
      const unconditioned = writes.some((s) => !(s as { Condition?: unknown }).Condition);
      const callers = writes.some((s) =>
        String(JSON.stringify((s as { Condition?: unknown }).Condition)).includes('APIKEY#*'),
      );
      expect(unconditioned || callers, `${spec.name} may record its caller`).toBe(true);
    }
  });

  it.each(
    allFunctions.map(
      (route) => [route.name, route.access.join(', ') || 'no access', route] as const,
    ),
  )('%s (%s) has exactly the expected actions', (name, _access, route) => {
    const expected = [
      ...new Set([...BASELINE_ACTIONS, ...route.access.flatMap((kind) => EXPECTED_ACTIONS[kind])]),
    ].sort();
    expect(
      actionsOf(statementsOf(built, name)),
      `IAM actions of ${name} for access [${route.access}]`,
    ).toEqual(expected);
  });

  it.each(allFunctions.map((route) => [route.name, route] as const))(
    '%s names the table and bucket in its environment only when it may touch them',
    (name, route) => {
      const variables = (
        functionProperties(name).Environment as { Variables: Record<string, unknown> }
      ).Variables;
      const usesTable = route.access.some(
        (a) => a.startsWith('table:') || a === 'rateLimits:count' || a === 'forms:update',
      );
      const usesUploads = route.access.some((a) => a.startsWith('uploads:'));
      expect('TABLE_NAME' in variables, `${name} TABLE_NAME presence`).toBe(usesTable);
      expect('UPLOADS_BUCKET' in variables, `${name} UPLOADS_BUCKET presence`).toBe(usesUploads);
      if (usesTable)
        expect(variables.TABLE_NAME).toEqual({ Ref: built.logicalId(built.stack.storage.table) });
      if (usesUploads)
        expect(variables.UPLOADS_BUCKET).toEqual({
          Ref: built.logicalId(built.stack.storage.uploads),
        });
    },
  );

  it.each(allFunctions.map((route) => [route.name] as const))(
    '%s: each action targets only its own resource (log group, table, uploads, schedule group)',
    (name) => {
      const fn = built.functionOf(name);
      const scheduling = built.stack.node.findChild('Scheduling');
      const ref = (construct: Parameters<typeof built.logicalId>[0]) =>
        `"${built.logicalId(construct)}"`;
      // What each service's statements may point at: a logical id, or the
      // schedule group's generated name inside the schedule ARN.
      const owners: Record<string, string[]> = {
        logs: [ref(fn.logGroup)],
        dynamodb: [ref(built.stack.storage.table)],
        s3: [ref(built.stack.storage.uploads)],
        scheduler: [`":schedule/",${scheduleGroupName()},"/*"`],
        iam: [ref(scheduling.node.findChild('ExecutionRole'))],
        sqs: built.stack.queues.all().map((q) => ref(q.queue)),
        // The teams' SES tenants (a lifted address's tenant entry).
        ses: [':tenant/team-*"'],
      };
      for (const statement of statementsOf(built, name)) {
        for (const action of [statement.Action].flat()) {
          const service = action.split(':')[0]!;
          const resourcesJson = JSON.stringify(statement.Resource);
          expect(resourcesJson, `${name}: ${action} on ${resourcesJson}`).not.toBe('"*"');
          for (const resource of [statement.Resource].flat()) {
            const allowed = owners[service] ?? [];
            expect(
              allowed.some((marker) => JSON.stringify(resource).includes(marker)),
              `${name}: ${action} reaches ${JSON.stringify(resource)}, not one of ${allowed}`,
            ).toBe(true);
          }
        }
      }
    },
  );

  it('schedules:manage stays inside the stack’s schedule group and passes the role only to the scheduler', () => {
    const statements = statementsOf(built, 'probeUpdate');
    const scheduleStatement = statements.find((s) =>
      [s.Action].flat().includes('scheduler:CreateSchedule'),
    );
    expect(
      JSON.stringify(scheduleStatement?.Resource),
      'schedule ARNs must be confined to the group',
    ).toContain(`":schedule/",${scheduleGroupName()},"/*"`);
    const passRole = statements.find((s) => [s.Action].flat().includes('iam:PassRole'));
    expect(passRole?.Condition).toEqual({
      StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' },
    });
    const variables = (
      functionProperties('probeUpdate').Environment as { Variables: Record<string, unknown> }
    ).Variables;
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining(['SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN']),
    );
  });

  it('a stack where nothing schedules builds no schedule group', () => {
    const quiet = synthesize({
      routes: everyAccessRoutes.filter(
        (route) =>
          !route.access.includes('schedules:manage') && !route.access.includes('schedules:cancel'),
      ),
      workers: [],
    });
    quiet.template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 0);
  });
});

describe('IAM across the whole stack', () => {
  it('no statement grants a wildcard action', () => {
    const traced = synthesize({
      routes: everyAccessRoutes,
      context: { tracing: true },
    });
    const wildcards: string[] = [];
    const policies = [
      ...Object.entries(resourcesOfType(traced.all, 'AWS::IAM::Policy')).map(
        ([id, r]) =>
          [id, [propertiesOf(r).PolicyDocument as { Statement: PolicyStatement[] }]] as const,
      ),
      ...Object.entries(resourcesOfType(traced.all, 'AWS::IAM::Role')).map(
        ([id, r]) =>
          [
            id,
            (
              (propertiesOf(r).Policies ?? []) as Array<{
                PolicyDocument: { Statement: PolicyStatement[] };
              }>
            ).map((p) => p.PolicyDocument),
          ] as const,
      ),
    ];
    for (const [id, documents] of policies) {
      for (const document of documents) {
        for (const statement of document.Statement) {
          if (statement.Effect !== 'Allow') continue;
          for (const action of [statement.Action].flat())
            if (action.includes('*')) wildcards.push(`${id}: ${action}`);
        }
      }
    }
    expect(wildcards, 'wildcard actions found').toEqual([]);
  });

  it('no function role carries an AWS-managed policy', () => {
    for (const route of allFunctions) {
      const roleId = built.logicalId(built.functionOf(route.name).role);
      expect(resources[roleId]!.Properties, `${route.name} role`).not.toHaveProperty(
        'ManagedPolicyArns',
      );
    }
  });
});
