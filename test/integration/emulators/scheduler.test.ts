import { setTimeout as sleep } from 'node:timers/promises';
import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  ListSchedulesCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '#lib/local/emulators/handle.ts';
import {
  type FiredSchedule,
  type ScheduleTarget,
  startScheduler,
} from '#lib/local/emulators/scheduler.ts';
import { until } from '#test/support/poll.ts';
import { LOCAL_CREDENTIALS, REGION } from './aws.ts';
import { expectLoopbackOnly } from './loopback.ts';

const TICK_MS = 100;
const RETRY_DELAY_MS = 200;
const FUNCTION_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:deliver';
const ROLE_ARN = 'arn:aws:iam::000000000000:role/scheduler';
const DLQ_ARN = 'arn:aws:sqs:us-east-1:000000000000:schedule-dlq';

interface Invocation {
  target: ScheduleTarget;
  schedule: FiredSchedule;
}

/** at() for `ms` from now, rounded up to the next whole second (at() has no fractions). */
function atIn(ms: number): string {
  const due = new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);
  return `at(${due.toISOString().slice(0, 19)})`;
}

/** A request shaped like the one lambdas/aws/scheduler.ts sends, DLQ included. */
function oneTime(name: string, overrides: Partial<CreateScheduleCommandInput> = {}) {
  return {
    Name: name,
    ScheduleExpression: atIn(1_000),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' as const },
    ActionAfterCompletion: 'DELETE' as const,
    Target: {
      Arn: FUNCTION_ARN,
      RoleArn: ROLE_ARN,
      Input: JSON.stringify({ name }),
      RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3600 },
      DeadLetterConfig: { Arn: DLQ_ARN },
    },
    ...overrides,
  };
}

describe('EventBridge Scheduler emulator', () => {
  let scheduler: EmulatorHandle;
  let client: SchedulerClient;
  const invocations: Invocation[] = [];
  const dropped: string[] = [];
  /** Schedule name -> how many more invocations should fail. */
  const failuresLeft = new Map<string, number>();

  const callsFor = (name: string) => invocations.filter((call) => call.schedule.name === name);

  async function waitForCalls(name: string, count: number, timeoutMs = 10_000): Promise<void> {
    await until(
      () => callsFor(name).length,
      (calls) => calls >= count,
      { timeoutMs, intervalMs: TICK_MS / 2, what: `${name}: ${count} invocations` },
    );
  }

  /** Enough ticks for any extra, wrong invocation to have happened. */
  const severalTicks = () => sleep(TICK_MS * 5);

  /** The schedule is gone: what the service's cancel meets after a schedule fired. */
  async function expectDeleted(Name: string, GroupName?: string): Promise<void> {
    await expect(
      client.send(new DeleteScheduleCommand({ Name, GroupName })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  }

  beforeAll(async () => {
    scheduler = await startScheduler({
      port: 0,
      tickMs: TICK_MS,
      retryDelayMs: RETRY_DELAY_MS,
      log: (message) => dropped.push(message),
      invoke: async (target, schedule) => {
        invocations.push({ target, schedule });
        const left = failuresLeft.get(schedule.name) ?? 0;
        if (left > 0) {
          failuresLeft.set(schedule.name, left - 1);
          throw new Error('target unavailable');
        }
      },
    });
    client = new SchedulerClient({
      endpoint: scheduler.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
    });
  });

  afterAll(async () => {
    client?.destroy();
    await scheduler?.stop();
  });

  it('fires an at() schedule once with its target and input, then deletes it', async () => {
    const { ScheduleArn } = await client.send(
      new CreateScheduleCommand(oneTime('reminder', { ScheduleExpression: atIn(1_500) })),
    );
    expect(ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/default/reminder');
    expect(callsFor('reminder')).toEqual([]);

    await waitForCalls('reminder', 1);
    await severalTicks();

    expect(callsFor('reminder')).toEqual([
      {
        target: { arn: FUNCTION_ARN, roleArn: ROLE_ARN, input: '{"name":"reminder"}' },
        schedule: { name: 'reminder', groupName: 'default' },
      },
    ]);
    await expectDeleted('reminder');
  });

  it('fires once, at the new time with the new input, after UpdateSchedule moves it closer', async () => {
    await client.send(
      new CreateScheduleCommand(oneTime('moved', { ScheduleExpression: atIn(3_600_000) })),
    );
    await severalTicks();
    expect(callsFor('moved')).toEqual([]);

    const moved = oneTime('moved', { ScheduleExpression: atIn(1_000) });
    moved.Target.Input = '{"moved":true}';
    const { ScheduleArn } = await client.send(new UpdateScheduleCommand(moved));
    expect(ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/default/moved');

    await waitForCalls('moved', 1);
    await severalTicks();
    expect(callsFor('moved').map((call) => call.target.input)).toEqual(['{"moved":true}']);
    await expectDeleted('moved');
  });

  it('reads a schedule back (GetSchedule: its at() and target), and none once deleted', async () => {
    const due = atIn(3_600_000);
    await client.send(
      new CreateScheduleCommand(
        oneTime('read-back', { ScheduleExpression: due, GroupName: 'default' }),
      ),
    );
    const schedule = await client.send(new GetScheduleCommand({ Name: 'read-back' }));
    expect(schedule).toMatchObject({
      Name: 'read-back',
      GroupName: 'default',
      ScheduleExpression: due,
      Target: { Arn: FUNCTION_ARN, RoleArn: ROLE_ARN, Input: '{"name":"read-back"}' },
    });
    await client.send(new DeleteScheduleCommand({ Name: 'read-back' }));
    await expect(client.send(new GetScheduleCommand({ Name: 'read-back' }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it('never fires a schedule deleted before it was due', async () => {
    // The sibling comes due at the same second: once it has fired, so would the deleted one.
    // Two seconds leave room for the create and delete calls on a busy machine.
    const due = atIn(2_000);
    await client.send(new CreateScheduleCommand(oneTime('cancelled', { ScheduleExpression: due })));
    await client.send(new CreateScheduleCommand(oneTime('sibling', { ScheduleExpression: due })));

    await client.send(new DeleteScheduleCommand({ Name: 'cancelled' }));
    await waitForCalls('sibling', 1);
    await severalTicks();

    expect(callsFor('cancelled')).toEqual([]);
  });

  it('retries a failed invocation and deletes the schedule once it succeeds', async () => {
    failuresLeft.set('flaky', 2);
    await client.send(new CreateScheduleCommand(oneTime('flaky', { ScheduleExpression: atIn(0) })));

    await waitForCalls('flaky', 3);
    await severalTicks();

    expect(callsFor('flaky')).toHaveLength(3);
    await expectDeleted('flaky');
    expect(dropped.filter((message) => message.includes('flaky'))).toEqual([]);
  });

  it('gives up after three failed attempts, reports the drop and deletes the schedule', async () => {
    failuresLeft.set('broken', 99);
    await client.send(
      new CreateScheduleCommand(oneTime('broken', { ScheduleExpression: atIn(0) })),
    );

    await waitForCalls('broken', 3);
    await sleep(RETRY_DELAY_MS * 3);

    expect(callsFor('broken')).toHaveLength(3);
    expect(dropped.filter((message) => message.includes('default/broken'))).toHaveLength(1);
    await expectDeleted('broken');
  });

  it('keeps schedules in a group made by CreateScheduleGroup, which conflicts when made again', async () => {
    const { ScheduleGroupArn } = await client.send(
      new CreateScheduleGroupCommand({ Name: 'closing' }),
    );
    expect(ScheduleGroupArn).toBe(
      'arn:aws:scheduler:us-east-1:000000000000:schedule-group/closing',
    );
    await expect(
      client.send(new CreateScheduleGroupCommand({ Name: 'closing' })),
    ).rejects.toBeInstanceOf(ConflictException);

    const { ScheduleArn } = await client.send(
      new CreateScheduleCommand(oneTime('grouped', { GroupName: 'closing' })),
    );
    expect(ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/closing/grouped');
    await waitForCalls('grouped', 1);

    expect(callsFor('grouped')[0]?.schedule).toEqual({ name: 'grouped', groupName: 'closing' });
    await expectDeleted('grouped', 'closing');
  });

  it('rejects a second schedule with the same name in a group with ConflictException', async () => {
    await client.send(
      new CreateScheduleCommand(oneTime('twice', { ScheduleExpression: atIn(3_600_000) })),
    );

    await expect(
      client.send(
        new CreateScheduleCommand(oneTime('twice', { ScheduleExpression: atIn(3_600_000) })),
      ),
    ).rejects.toBeInstanceOf(ConflictException);
  });

  it('answers ResourceNotFoundException for unknown schedules and groups', async () => {
    await expectDeleted('missing');
    await expect(client.send(new UpdateScheduleCommand(oneTime('missing')))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
    await expect(
      client.send(new CreateScheduleCommand(oneTime('orphan', { GroupName: 'no-such-group' }))),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  it.each([
    ['a malformed expression', { ScheduleExpression: 'tomorrow' }],
    ['an impossible date', { ScheduleExpression: 'at(2030-02-30T10:00:00)' }],
    ['a recurring expression', { ScheduleExpression: 'rate(5 minutes)' }],
    ['a time zone other than UTC', { ScheduleExpressionTimezone: 'Europe/Berlin' }],
    ['a missing role', { Target: { Arn: FUNCTION_ARN } as never }],
    [
      'a flexible window',
      { FlexibleTimeWindow: { Mode: 'FLEXIBLE' as const, MaximumWindowInMinutes: 5 } },
    ],
    ['a schedule kept after it fires', { ActionAfterCompletion: 'NONE' as const }],
    ['a field the service does not send', { State: 'DISABLED' as const }],
    [
      'a target field the service does not send',
      { Target: { Arn: FUNCTION_ARN, RoleArn: ROLE_ARN, SqsParameters: { MessageGroupId: 'g' } } },
    ],
    ['a name longer than 64 characters', { Name: `close-form-${'x'.repeat(54)}` }],
  ])('rejects %s with ValidationException', async (rejected, overrides) => {
    const name = rejected.replaceAll(' ', '-');
    const error = await client
      .send(new CreateScheduleCommand(oneTime(name, overrides)))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ValidationException);
    await expectDeleted(name);
  });

  it('refuses operations the service does not call with UnknownOperationException', async () => {
    await client.send(new CreateScheduleGroupCommand({ Name: 'refusing' }));
    const unused = [
      new ListSchedulesCommand({}),
      new DeleteScheduleGroupCommand({ Name: 'refusing' }),
    ];

    for (const command of unused) {
      const error = await client.send(command as never).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        name: 'UnknownOperationException',
        $metadata: { httpStatusCode: 404 },
        message: expect.stringContaining('not an operation the local scheduler supports'),
      });
    }
    // Refused, not quietly done: the group is still there.
    await client.send(
      new CreateScheduleCommand(
        oneTime('after-refusal', { GroupName: 'refusing', ScheduleExpression: atIn(3_600_000) }),
      ),
    );
  });

  it('accepts connections on 127.0.0.1 only', async () => {
    await expectLoopbackOnly(scheduler.port);
  });
});
