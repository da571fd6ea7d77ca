import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EmulatorHandle } from './handle.ts';
import { assertPortFree, LOOPBACK } from './ports.ts';
import { isRecord, SchedulerError } from './scheduler-model.ts';
import { type InvokeTarget, ScheduleRunner } from './scheduler-runner.ts';
import { SchedulerStore } from './scheduler-store.ts';

export type { ScheduleTarget } from './scheduler-model.ts';
export type { FiredSchedule, InvokeTarget } from './scheduler-runner.ts';

export interface SchedulerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Delivers a fired schedule to its target (the local stand-in for the service's role). */
  invoke: InvokeTarget;
  /** How often due schedules are looked for; AWS itself only promises the right minute. */
  tickMs?: number;
  /** Pause before retrying a failed invocation (3 attempts in all). */
  retryDelayMs?: number;
  /** Where dropped invocations are reported; stderr by default. */
  log?: (message: string) => void;
}

/**
 * An EventBridge Scheduler stand-in speaking the service's REST-JSON protocol, so the real
 * `@aws-sdk/client-scheduler` works against it unchanged. It knows only what the service
 * uses (see OPERATIONS): one-time at() schedules in UTC that delete themselves once fired,
 * state in memory. A schedule already due when created fires on the next tick.
 */
export async function startScheduler(options: SchedulerOptions): Promise<EmulatorHandle> {
  const startedAt = performance.now();
  await assertPortFree(options.port, 'EventBridge Scheduler', '--scheduler-port');
  const store = new SchedulerStore();
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
    const [collection, encodedName, ...rest] = url.pathname.split('/').filter(Boolean);
    const operation = OPERATIONS[`${request.method} ${collection}`];
    if (operation === undefined || encodedName === undefined || rest.length > 0) {
      throw new SchedulerError(
        'UnknownOperationException',
        `${request.method} ${url.pathname} is not an operation the local scheduler supports`,
      );
    }
    const body = await readJson(request);
    send(response, 200, operation(store, decodeURIComponent(encodedName), body, url.searchParams));
  } catch (error) {
    const failure =
      error instanceof SchedulerError
        ? error
        : new SchedulerError('InternalServerException', String(error));
    send(response, failure.status, { Message: failure.message }, failure.type);
  }
}

type Operation = (
  store: SchedulerStore,
  name: string,
  body: Record<string, unknown>,
  query: URLSearchParams,
) => unknown;

/**
 * The operations in use, keyed by method and the path's first segment (each takes a
 * {Name}): lambdas/aws/scheduler.ts creates, moves (update after a conflict) and deletes
 * its schedules; lib/local/resources.ts creates the stack's group; integration tests read
 * one back (GetSchedule: when a form's pending sweep is due). Anything else is refused, so
 * a new call in the service shows up here instead of silently succeeding.
 */
const OPERATIONS: Record<string, Operation> = {
  'POST schedules': (store, name, body) => ({
    ScheduleArn: store.createSchedule(name, body).arn,
  }),
  'PUT schedules': (store, name, body) => ({
    ScheduleArn: store.updateSchedule(name, body).arn,
  }),
  'GET schedules': (store, name, _body, query) => {
    const schedule = store.getSchedule(name, query.get('groupName') ?? undefined);
    return {
      Name: schedule.name,
      GroupName: schedule.groupName,
      Arn: schedule.arn,
      State: 'ENABLED',
      ScheduleExpression: `at(${new Date(schedule.dueAt).toISOString().slice(0, 19)})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: schedule.target.arn,
        RoleArn: schedule.target.roleArn,
        Input: schedule.target.input,
      },
    };
  },
  'DELETE schedules': (store, name, _body, query) => {
    store.deleteSchedule(name, query.get('groupName') ?? undefined);
    return {};
  },
  'POST schedule-groups': (store, name) => ({ ScheduleGroupArn: store.createGroup(name) }),
};

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
