import { setTimeout as sleep } from 'node:timers/promises';
import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListSchedulesCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../../lib/local/emulators/handle.ts';
import {
  type FiredSchedule,
  type ScheduleTarget,
  startScheduler,
} from '../../../lib/local/emulators/scheduler.ts';
import { LOCAL_CREDENTIALS, REGION } from './aws.ts';
import { expectLoopbackOnly } from './loopback.ts';

const TICK_MS = 100;
const RETRY_DELAY_MS = 200;
const FUNCTION_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:deliver';
const ROLE_ARN = 'arn:aws:iam::000000000000:role/scheduler';

interface Invocation {
  target: ScheduleTarget;
  schedule: FiredSchedule;
}

/** at() for `ms` from now, rounded up to the next whole second (at() has no fractions). */
function atIn(ms: number): string {
  const due = new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);
  return `at(${due.toISOString().slice(0, 19)})`;
}

function oneTime(name: string, overrides: Partial<CreateScheduleCommandInput> = {}) {
  return {
    Name: name,
    ScheduleExpression: atIn(1_000),
    FlexibleTimeWindow: { Mode: 'OFF' as const },
    Target: { Arn: FUNCTION_ARN, RoleArn: ROLE_ARN, Input: JSON.stringify({ name }) },
    ActionAfterCompletion: 'DELETE' as const,
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
    const deadline = Date.now() + timeoutMs;
    while (callsFor(name).length < count) {
      if (Date.now() > deadline) {
        throw new Error(`${name}: ${callsFor(name).length} of ${count} invocations`);
      }
      await sleep(TICK_MS / 2);
    }
  }

  /** Enough ticks for any extra, wrong invocation to have happened. */
  const severalTicks = () => sleep(TICK_MS * 5);

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
    await expect(client.send(new GetScheduleCommand({ Name: 'reminder' }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it('keeps a fired schedule with ActionAfterCompletion NONE, without firing it again', async () => {
    await client.send(
      new CreateScheduleCommand(oneTime('kept', { ActionAfterCompletion: 'NONE' })),
    );

    await waitForCalls('kept', 1);
    await severalTicks();

    expect(callsFor('kept')).toHaveLength(1);
    const kept = await client.send(new GetScheduleCommand({ Name: 'kept' }));
    expect(kept.ActionAfterCompletion).toBe('NONE');
  });

  it('returns what was created from GetSchedule', async () => {
    const expression = atIn(3_600_000);
    await client.send(
      new CreateScheduleCommand(
        oneTime('described', {
          ScheduleExpression: expression,
          Description: 'later',
          State: 'DISABLED',
        }),
      ),
    );

    const schedule = await client.send(new GetScheduleCommand({ Name: 'described' }));

    expect(schedule).toMatchObject({
      Name: 'described',
      GroupName: 'default',
      Arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/described',
      ScheduleExpression: expression,
      Description: 'later',
      State: 'DISABLED',
      ActionAfterCompletion: 'DELETE',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: FUNCTION_ARN, RoleArn: ROLE_ARN, Input: '{"name":"described"}' },
    });
    expect(schedule.CreationDate).toBeInstanceOf(Date);
    expect(Math.abs(schedule.CreationDate!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('fires at the new time after UpdateSchedule moves an hour-away schedule closer', async () => {
    await client.send(
      new CreateScheduleCommand(oneTime('moved', { ScheduleExpression: atIn(3_600_000) })),
    );
    await severalTicks();
    expect(callsFor('moved')).toEqual([]);

    const soon = atIn(1_000);
    await client.send(new UpdateScheduleCommand(oneTime('moved', { ScheduleExpression: soon })));
    expect((await client.send(new GetScheduleCommand({ Name: 'moved' }))).ScheduleExpression).toBe(
      soon,
    );

    await waitForCalls('moved', 1);
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

  it('does not fire a DISABLED schedule', async () => {
    const due = atIn(1_000);
    await client.send(
      new CreateScheduleCommand(
        oneTime('disabled', { ScheduleExpression: due, State: 'DISABLED' }),
      ),
    );
    await client.send(new CreateScheduleCommand(oneTime('enabled', { ScheduleExpression: due })));

    await waitForCalls('enabled', 1);
    await severalTicks();

    expect(callsFor('disabled')).toEqual([]);
  });

  it('retries a failed invocation and deletes the schedule once it succeeds', async () => {
    failuresLeft.set('flaky', 2);
    await client.send(new CreateScheduleCommand(oneTime('flaky', { ScheduleExpression: atIn(0) })));

    await waitForCalls('flaky', 3);
    await severalTicks();

    expect(callsFor('flaky')).toHaveLength(3);
    await expect(client.send(new GetScheduleCommand({ Name: 'flaky' }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
    expect(dropped.filter((message) => message.includes('flaky'))).toEqual([]);
  });

  it('gives up after three failed attempts and reports the drop', async () => {
    failuresLeft.set('broken', 99);
    await client.send(
      new CreateScheduleCommand(oneTime('broken', { ScheduleExpression: atIn(0) })),
    );

    await waitForCalls('broken', 3);
    await sleep(RETRY_DELAY_MS * 3);

    expect(callsFor('broken')).toHaveLength(3);
    expect(dropped.filter((message) => message.includes('default/broken'))).toHaveLength(1);
  });

  it('lists schedules by group and name prefix, page by page', async () => {
    await client.send(new CreateScheduleGroupCommand({ Name: 'listing' }));
    for (const name of ['digest-a', 'digest-b', 'other']) {
      await client.send(
        new CreateScheduleCommand(
          oneTime(name, { GroupName: 'listing', ScheduleExpression: atIn(3_600_000) }),
        ),
      );
    }

    const first = await client.send(
      new ListSchedulesCommand({ GroupName: 'listing', NamePrefix: 'digest-', MaxResults: 1 }),
    );
    const second = await client.send(
      new ListSchedulesCommand({
        GroupName: 'listing',
        NamePrefix: 'digest-',
        MaxResults: 1,
        NextToken: first.NextToken,
      }),
    );
    const all = await client.send(new ListSchedulesCommand({ GroupName: 'listing' }));

    expect(first.Schedules?.map((s) => s.Name)).toEqual(['digest-a']);
    expect(second.Schedules?.map((s) => s.Name)).toEqual(['digest-b']);
    expect(second.NextToken).toBeUndefined();
    expect(all.Schedules?.map((s) => s.Name)).toEqual(['digest-a', 'digest-b', 'other']);
    expect(all.Schedules?.[0]).toMatchObject({
      GroupName: 'listing',
      State: 'ENABLED',
      Target: { Arn: FUNCTION_ARN },
    });
  });

  it('creates, reads and deletes a schedule group together with its schedules', async () => {
    const { ScheduleGroupArn } = await client.send(
      new CreateScheduleGroupCommand({ Name: 'temp' }),
    );
    await client.send(
      new CreateScheduleCommand(
        oneTime('in-temp', { GroupName: 'temp', ScheduleExpression: atIn(3_600_000) }),
      ),
    );

    const group = await client.send(new GetScheduleGroupCommand({ Name: 'temp' }));
    expect(group).toMatchObject({ Arn: ScheduleGroupArn, Name: 'temp', State: 'ACTIVE' });

    await client.send(new DeleteScheduleGroupCommand({ Name: 'temp' }));

    await expect(client.send(new GetScheduleGroupCommand({ Name: 'temp' }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
    await expect(
      client.send(new GetScheduleCommand({ Name: 'in-temp', GroupName: 'temp' })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
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
    await expect(client.send(new GetScheduleCommand({ Name: 'missing' }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
    await expect(
      client.send(new DeleteScheduleCommand({ Name: 'missing' })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
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
    ['an unknown state', { State: 'PAUSED' as never }],
  ])('rejects %s with ValidationException', async (_case, overrides) => {
    const error = await client
      .send(new CreateScheduleCommand(oneTime('invalid', overrides)))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ValidationException);
    await expect(client.send(new GetScheduleCommand({ Name: 'invalid' }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it('accepts connections on 127.0.0.1 only', async () => {
    await expectLoopbackOnly(scheduler.port);
  });
});
