import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { config } from '#config';
import { atExpression, type CloseFormEvent, closeScheduleName } from '#domain/close-schedule.ts';

// Created once per container; AWS_ENDPOINT_URL_SCHEDULER points it at the local emulator.
const scheduler = new SchedulerClient({});

/** Creates the form's close schedule, or moves it when one exists. */
export async function scheduleFormClose(formId: string, autoCloseAt: string): Promise<void> {
  const input: CloseFormEvent = { formId, autoCloseAt };
  const request: CreateScheduleCommandInput = {
    Name: closeScheduleName(formId),
    GroupName: config.scheduleGroup,
    ScheduleExpression: atExpression(autoCloseAt),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    Target: {
      Arn: config.formCloserArn,
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
  try {
    await scheduler.send(
      new DeleteScheduleCommand({
        Name: closeScheduleName(formId),
        GroupName: config.scheduleGroup,
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
