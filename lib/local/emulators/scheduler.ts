import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';
import { isRecord, type Schedule, type ScheduleGroup, SchedulerError } from './scheduler-model.ts';
import { type InvokeTarget, ScheduleRunner } from './scheduler-runner.ts';
import { SchedulerStore } from './scheduler-store.ts';

export type { FiredSchedule, InvokeTarget, ScheduleTarget } from './scheduler-runner.ts';

export interface SchedulerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Named in the error when the port is taken. */
  portFlag?: string;
  /** Delivers a fired schedule to its target (the local stand-in for the service's role). */
  invoke: InvokeTarget;
  /** How often due schedules are looked for; AWS itself only promises the right minute. */
  tickMs?: number;
  /** Pause before retrying a failed invocation (3 attempts in all). */
  retryDelayMs?: number;
  /** Region put into ARNs. */
  region?: string;
  /** Where dropped invocations are reported; stderr by default. */
  log?: (message: string) => void;
}

/**
 * An EventBridge Scheduler stand-in speaking the service's REST-JSON protocol, so the real
 * `@aws-sdk/client-scheduler` works against it unchanged. One-time at() schedules only, UTC
 * only, state in memory. A schedule already due when created fires on the next tick.
 */
export async function startScheduler(options: SchedulerOptions): Promise<EmulatorHandle> {
  const startedAt = performance.now();
  await assertPortFree(
    options.port,
    'EventBridge Scheduler',
    options.portFlag ?? '--scheduler-port',
  );
  const store = new SchedulerStore(options.region ?? 'us-east-1');
  const runner = new ScheduleRunner({
    store,
    invoke: options.invoke,
    tickMs: options.tickMs ?? 250,
    retryDelayMs: options.retryDelayMs ?? 1_000,
    maxAttempts: 3,
    log: options.log ?? ((message) => process.stderr.write(`${message}\n`)),
  });
  const server = createServer((request, response) => {
    void handle(store, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  runner.start();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    endpoint: `http://${LOOPBACK}:${address.port}`,
    port: address.port,
    startupMs: Math.round(performance.now() - startedAt),
    stop: async () => {
      await runner.stop();
      await close(server);
    },
  };
}

async function handle(
  store: SchedulerStore,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const url = new URL(request.url ?? '/', 'http://scheduler');
    const body = await readJson(request);
    const result = route(store, request.method ?? 'GET', url, body);
    send(response, 200, result);
  } catch (error) {
    const failure =
      error instanceof SchedulerError
        ? error
        : new SchedulerError('InternalServerException', String(error));
    send(response, failure.status, { Message: failure.message }, failure.type);
  }
}

function route(
  store: SchedulerStore,
  method: string,
  url: URL,
  body: Record<string, unknown>,
): unknown {
  const [collection, encodedName, ...rest] = url.pathname.split('/').filter(Boolean);
  const name = encodedName === undefined ? undefined : decodeURIComponent(encodedName);
  const query = url.searchParams;
  const operation = `${method} ${collection ?? ''}${name === undefined ? '' : '/{Name}'}`;
  if (rest.length > 0) throw unknownOperation(method, url);

  switch (operation) {
    case 'POST schedules/{Name}':
      return { ScheduleArn: store.createSchedule(name, body).arn };
    case 'PUT schedules/{Name}':
      return { ScheduleArn: store.updateSchedule(name, body).arn };
    case 'GET schedules/{Name}':
      return scheduleJson(store.getSchedule(name, query.get('groupName') ?? undefined));
    case 'DELETE schedules/{Name}':
      store.deleteSchedule(name, query.get('groupName') ?? undefined);
      return {};
    case 'GET schedules':
      return page(
        store.listSchedules({
          groupName: query.get('ScheduleGroup') ?? undefined,
          namePrefix: query.get('NamePrefix') ?? undefined,
          state: query.get('State') ?? undefined,
        }),
        query,
        (schedules, next) => ({ Schedules: schedules.map(scheduleSummaryJson), NextToken: next }),
      );
    case 'POST schedule-groups/{Name}':
      return { ScheduleGroupArn: store.createGroup(name).arn };
    case 'GET schedule-groups/{Name}':
      return groupJson(store.getGroup(name));
    case 'DELETE schedule-groups/{Name}':
      store.deleteGroup(name);
      return {};
    case 'GET schedule-groups':
      return page(
        store.listGroups(query.get('NamePrefix') ?? undefined),
        query,
        (groups, next) => ({
          ScheduleGroups: groups.map(groupJson),
          NextToken: next,
        }),
      );
    default:
      throw unknownOperation(method, url);
  }
}

/** NextToken is the offset of the next item, opaque to clients as on AWS. */
function page<T>(
  items: T[],
  query: URLSearchParams,
  shape: (items: T[], next: string | undefined) => unknown,
): unknown {
  const max = Number(query.get('MaxResults') ?? 100);
  const token = query.get('NextToken');
  const start = token === null ? 0 : Number(Buffer.from(token, 'base64url').toString());
  if (!Number.isInteger(max) || max < 1 || max > 100 || !Number.isInteger(start) || start < 0) {
    throw new SchedulerError('ValidationException', 'Invalid MaxResults or NextToken');
  }
  const end = start + max;
  const next = end < items.length ? Buffer.from(String(end)).toString('base64url') : undefined;
  return shape(items.slice(start, end), next);
}

function unknownOperation(method: string, url: URL): SchedulerError {
  return new SchedulerError(
    'UnknownOperationException',
    `${method} ${url.pathname} is not an operation the local scheduler supports`,
  );
}

/** REST-JSON timestamps default to epoch seconds. */
function seconds(date: Date): number {
  return date.getTime() / 1000;
}

function scheduleJson(schedule: Schedule): Record<string, unknown> {
  return {
    Arn: schedule.arn,
    GroupName: schedule.groupName,
    Name: schedule.name,
    ScheduleExpression: schedule.expression,
    ScheduleExpressionTimezone: schedule.timezone,
    StartDate: schedule.startDate,
    EndDate: schedule.endDate,
    Description: schedule.description,
    State: schedule.state,
    CreationDate: seconds(schedule.createdAt),
    LastModificationDate: seconds(schedule.modifiedAt),
    KmsKeyArn: schedule.kmsKeyArn,
    Target: schedule.target,
    FlexibleTimeWindow: schedule.flexibleTimeWindow,
    ActionAfterCompletion: schedule.actionAfterCompletion,
  };
}

function scheduleSummaryJson(schedule: Schedule): Record<string, unknown> {
  return {
    Arn: schedule.arn,
    Name: schedule.name,
    GroupName: schedule.groupName,
    State: schedule.state,
    CreationDate: seconds(schedule.createdAt),
    LastModificationDate: seconds(schedule.modifiedAt),
    Target: { Arn: schedule.target.Arn },
  };
}

function groupJson(group: ScheduleGroup): Record<string, unknown> {
  return {
    Arn: group.arn,
    Name: group.name,
    State: 'ACTIVE',
    CreationDate: seconds(group.createdAt),
    LastModificationDate: seconds(group.modifiedAt),
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SchedulerError('ValidationException', 'Request body is not valid JSON');
  }
  if (!isRecord(parsed))
    throw new SchedulerError('ValidationException', 'Request body must be an object');
  return parsed;
}

function send(response: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(errorType === undefined ? {} : { 'x-amzn-errortype': errorType }),
  });
  response.end(text);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive sockets from SDK clients would otherwise hold close() open.
    server.closeAllConnections();
  });
}
