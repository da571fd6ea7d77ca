import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { sdkLogger } from '#aws/sdk-logger.ts';
import { config } from '#config';
import { atExpression, type CloseFormEvent, closeScheduleName } from '#domain/close-schedule.ts';
import { type PendingSweepEvent, pendingSweepName } from '#domain/pending-sweep.ts';
import { type RetentionSweepEvent, retentionSweepName } from '#domain/retention-sweep.ts';

// Created once per container; AWS_ENDPOINT_URL_SCHEDULER points it at the local emulator.
const scheduler = new SchedulerClient({ logger: sdkLogger });

/** Creates the form's close schedule, or moves it when one exists. */
export async function scheduleFormClose(formId: string, autoCloseAt: string): Promise<void> {
  const input: CloseFormEvent = { formId, autoCloseAt };
  await putSchedule(closeScheduleName(formId), autoCloseAt, config.formCloserArn, input);
}

/**
 * Creates the form's next retention sweep at `at`, or moves it when one is
 * pending (docs/submissions.md#retention).
 */
export async function scheduleRetentionSweep(formId: string, at: string): Promise<void> {
  const input: RetentionSweepEvent = { formId };
  await putSchedule(retentionSweepName(formId), at, config.retentionSweeperArn, input);
}

/**
 * Creates the form's next pending sweep at `at`, or moves it when one is
 * there (docs/submit.md#confirm-by-email).
 */
export async function schedulePendingSweep(formId: string, at: string): Promise<void> {
  const input: PendingSweepEvent = { formId, at };
  await putSchedule(pendingSweepName(formId), at, config.pendingSweeperArn, input);
}

/** Removes the form's pending sweep: no post of the form waits for confirmation. */
export async function cancelPendingSweep(formId: string): Promise<void> {
  await deleteSchedule(pendingSweepName(formId));
}

/** A one-time schedule that invokes `targetArn` with `input` at `at`, created or moved. */
async function putSchedule(name: string, at: string, targetArn: string, input: object) {
  const request: CreateScheduleCommandInput = {
    Name: name,
    GroupName: config.scheduleGroup,
    ScheduleExpression: atExpression(at),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    Target: {
      Arn: targetArn,
      RoleArn: config.schedulerRoleArn,
      Input: JSON.stringify(input),
      RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3600 },
      DeadLetterConfig: config.scheduleDlqArn ? { Arn: config.scheduleDlqArn } : undefined,
    },
  };
  try {
    await scheduler.send(new CreateScheduleCommand(request));
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
    await scheduler.send(new UpdateScheduleCommand(request));
  }
}

/** Deletes the form's close schedule; none is fine. */
export async function cancelFormClose(formId: string): Promise<void> {
  await deleteSchedule(closeScheduleName(formId));
}

/** Deletes a schedule of the group; none is fine. */
async function deleteSchedule(name: string): Promise<void> {
  try {
    await scheduler.send(
      new DeleteScheduleCommand({ Name: name, GroupName: config.scheduleGroup }),
    );
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
