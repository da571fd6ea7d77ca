/** One schedule as the emulator keeps it. Updates replace the object, never mutate it. */
export interface Schedule {
  name: string;
  groupName: string;
  arn: string;
  expression: string;
  timezone: string | undefined;
  /** When the at() expression comes due, in epoch milliseconds. */
  dueAt: number;
  state: 'ENABLED' | 'DISABLED';
  actionAfterCompletion: 'NONE' | 'DELETE';
  /** The Target object exactly as the client sent it, returned unchanged by GetSchedule. */
  target: Record<string, unknown>;
  flexibleTimeWindow: Record<string, unknown>;
  description: string | undefined;
  startDate: number | undefined;
  endDate: number | undefined;
  kmsKeyArn: string | undefined;
  createdAt: Date;
  modifiedAt: Date;
}

export interface ScheduleGroup {
  name: string;
  arn: string;
  createdAt: Date;
  modifiedAt: Date;
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

const NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;
const AT = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/;
const UTC_ZONES = new Set(['UTC', 'Etc/UTC']);

export function assertValidName(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || !NAME.test(value)) {
    throw new SchedulerError(
      'ValidationException',
      `${what} must be 1 to 64 characters of letters, digits, '-', '_' or '.'`,
    );
  }
}

/** Epoch milliseconds of an at() expression, read in UTC. */
export function parseAtExpression(expression: unknown, timezone: unknown): number {
  if (timezone !== undefined && !(typeof timezone === 'string' && UTC_ZONES.has(timezone))) {
    throw new SchedulerError(
      'ValidationException',
      `ScheduleExpressionTimezone ${String(timezone)} is not supported locally: use UTC`,
    );
  }
  if (typeof expression !== 'string') {
    throw new SchedulerError('ValidationException', 'ScheduleExpression is required');
  }
  if (/^(rate|cron)\(/.test(expression)) {
    throw new SchedulerError(
      'ValidationException',
      `${expression}: the local scheduler supports one-time at(yyyy-mm-ddThh:mm:ss) schedules only`,
    );
  }
  const parts = AT.exec(expression)?.slice(1).map(Number);
  if (parts === undefined) {
    throw new SchedulerError('ValidationException', `Invalid Schedule Expression ${expression}`);
  }
  const [year, month, day, hour, minute, second] = parts as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const time = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2026-02-30 over into March: a round trip catches impossible dates.
  const back = new Date(time);
  const exact =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  if (!exact) {
    throw new SchedulerError('ValidationException', `Invalid Schedule Expression ${expression}`);
  }
  return time;
}

/** Checks a CreateSchedule/UpdateSchedule body; both take the same full description. */
export function readScheduleBody(
  body: Record<string, unknown>,
): Omit<Schedule, 'name' | 'groupName' | 'arn' | 'createdAt' | 'modifiedAt'> {
  const dueAt = parseAtExpression(body.ScheduleExpression, body.ScheduleExpressionTimezone);
  const target = body.Target;
  if (!isRecord(target) || typeof target.Arn !== 'string' || typeof target.RoleArn !== 'string') {
    throw new SchedulerError('ValidationException', 'Target with Arn and RoleArn is required');
  }
  if (target.Input !== undefined && typeof target.Input !== 'string') {
    throw new SchedulerError('ValidationException', 'Target.Input must be a string');
  }
  const window = body.FlexibleTimeWindow;
  if (!isRecord(window) || !isValidWindow(window)) {
    throw new SchedulerError(
      'ValidationException',
      'FlexibleTimeWindow is required: Mode OFF, or FLEXIBLE with MaximumWindowInMinutes 1-1440',
    );
  }
  return {
    expression: body.ScheduleExpression as string,
    timezone: optionalString(body.ScheduleExpressionTimezone),
    dueAt,
    state: oneOf(body.State, ['ENABLED', 'DISABLED'], 'ENABLED', 'State'),
    actionAfterCompletion: oneOf(
      body.ActionAfterCompletion,
      ['NONE', 'DELETE'],
      'NONE',
      'ActionAfterCompletion',
    ),
    target,
    flexibleTimeWindow: window,
    description: optionalString(body.Description),
    startDate: optionalNumber(body.StartDate),
    endDate: optionalNumber(body.EndDate),
    kmsKeyArn: optionalString(body.KmsKeyArn),
  };
}

function isValidWindow(window: Record<string, unknown>): boolean {
  if (window.Mode === 'OFF') return true;
  const minutes = window.MaximumWindowInMinutes;
  return (
    window.Mode === 'FLEXIBLE' &&
    typeof minutes === 'number' &&
    Number.isInteger(minutes) &&
    minutes >= 1 &&
    minutes <= 1440
  );
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  fallback: T,
  what: string,
): T {
  if (value === undefined) return fallback;
  if (allowed.includes(value as T)) return value as T;
  throw new SchedulerError('ValidationException', `${what} must be one of ${allowed.join(', ')}`);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
