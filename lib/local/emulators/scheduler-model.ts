/** Where a fired schedule's invocation goes; also what the emulator hands to `invoke`. */
export interface ScheduleTarget {
  arn: string;
  roleArn: string;
  input: string | undefined;
}

/** One schedule as the emulator keeps it. Updates replace the object, never mutate it. */
export interface Schedule {
  name: string;
  groupName: string;
  arn: string;
  /** When the at() expression comes due, in epoch milliseconds. */
  dueAt: number;
  target: ScheduleTarget;
}

export type SchedulerErrorType =
  | 'ValidationException'
  | 'ResourceNotFoundException'
  | 'ConflictException'
  | 'UnknownOperationException'
  | 'InternalServerException';

const STATUS: Record<SchedulerErrorType, number> = {
  ValidationException: 400,
  ResourceNotFoundException: 404,
  ConflictException: 409,
  UnknownOperationException: 404,
  InternalServerException: 500,
};

/** An error the HTTP layer turns into the service's error shape (status, x-amzn-errortype). */
export class SchedulerError extends Error {
  readonly type: SchedulerErrorType;
  readonly status: number;

  constructor(type: SchedulerErrorType, message: string) {
    super(message);
    this.name = type;
    this.type = type;
    this.status = STATUS[type];
  }
}

// The fields lambdas/aws/scheduler.ts sends (the SDK adds ClientToken). Any other field
// (State, StartDate, other target kinds...) would change what AWS does with the schedule,
// so it is refused rather than silently ignored.
const SCHEDULE_FIELDS = new Set([
  'ClientToken',
  'GroupName',
  'ScheduleExpression',
  'ScheduleExpressionTimezone',
  'FlexibleTimeWindow',
  'ActionAfterCompletion',
  'Target',
]);
// RetryPolicy and DeadLetterConfig are accepted but not honoured: local retries are fixed
// (see the runner) and a dropped invocation is logged, since no local DLQ is configured.
const TARGET_FIELDS = new Set(['Arn', 'RoleArn', 'Input', 'RetryPolicy', 'DeadLetterConfig']);

const NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;
const AT = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

/** AWS's name rule, so a close-form-<id> name too long for AWS fails locally as well. */
export function assertValidName(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || !NAME.test(value)) {
    throw invalid(`${what} must be 1 to 64 characters of letters, digits, '-', '_' or '.'`);
  }
}

/**
 * Checks a CreateSchedule/UpdateSchedule body (both take the same full description) and
 * keeps what firing needs. Fired schedules are always deleted and fire at their exact
 * second, so only ActionAfterCompletion DELETE and FlexibleTimeWindow OFF are accepted.
 */
export function readScheduleBody(
  body: Record<string, unknown>,
): Pick<Schedule, 'dueAt' | 'target'> {
  rejectOtherFields(body, SCHEDULE_FIELDS, '');
  const target = body.Target;
  if (!isRecord(target) || typeof target.Arn !== 'string' || typeof target.RoleArn !== 'string') {
    throw invalid('Target with Arn and RoleArn is required');
  }
  rejectOtherFields(target, TARGET_FIELDS, 'Target.');
  if (target.Input !== undefined && typeof target.Input !== 'string') {
    throw invalid('Target.Input must be a string');
  }
  if (!isRecord(body.FlexibleTimeWindow) || body.FlexibleTimeWindow.Mode !== 'OFF') {
    throw invalid(
      'FlexibleTimeWindow { Mode: OFF } is required: the local scheduler has no windows',
    );
  }
  if (body.ActionAfterCompletion !== 'DELETE') {
    throw invalid(
      'ActionAfterCompletion DELETE is required: the local scheduler deletes fired schedules',
    );
  }
  return {
    dueAt: parseAtExpression(body.ScheduleExpression, body.ScheduleExpressionTimezone),
    target: { arn: target.Arn, roleArn: target.RoleArn, input: target.Input },
  };
}

/** Epoch milliseconds of an at() expression, read in UTC. */
function parseAtExpression(expression: unknown, timezone: unknown): number {
  if (timezone !== undefined && timezone !== 'UTC') {
    throw invalid(
      `ScheduleExpressionTimezone ${String(timezone)} is not supported locally: use UTC`,
    );
  }
  const local = typeof expression === 'string' ? AT.exec(expression)?.[1] : undefined;
  const time = local === undefined ? Number.NaN : Date.parse(`${local}Z`);
  // Date.parse rolls 2030-02-30 over into March: the round trip catches impossible dates.
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 19) !== local) {
    throw invalid(
      `Invalid Schedule Expression ${String(expression)}: the local scheduler takes at(yyyy-mm-ddThh:mm:ss) only`,
    );
  }
  return time;
}

function rejectOtherFields(body: Record<string, unknown>, allowed: Set<string>, prefix: string) {
  const other = Object.keys(body).filter((key) => !allowed.has(key));
  if (other.length > 0) {
    throw invalid(
      `${other.map((key) => prefix + key).join(', ')}: not supported by the local scheduler`,
    );
  }
}

function invalid(message: string): SchedulerError {
  return new SchedulerError('ValidationException', message);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
