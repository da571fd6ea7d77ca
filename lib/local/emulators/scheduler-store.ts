import {
  assertValidName,
  readScheduleBody,
  type Schedule,
  SchedulerError,
} from './scheduler-model.ts';

const DEFAULT_GROUP = 'default';
/** Where local ARNs say they are; nothing checks either. */
const REGION_AND_ACCOUNT = 'us-east-1:000000000000';

/**
 * Schedules by group, in memory, with the existence and conflict rules the service code
 * and the stack's setup rely on: ConflictException for a name taken (the service then
 * updates), ResourceNotFoundException for a missing schedule (the service's delete ignores
 * it) or group (a stack that forgot its group fails as on AWS).
 */
export class SchedulerStore {
  /** group name -> schedule name -> schedule; the default group always exists, as on AWS. */
  readonly #groups = new Map<string, Map<string, Schedule>>([[DEFAULT_GROUP, new Map()]]);

  /** Returns the new group's ARN. */
  createGroup(name: unknown): string {
    assertValidName(name, 'Name');
    if (this.#groups.has(name)) {
      throw new SchedulerError('ConflictException', `Schedule group ${name} already exists.`);
    }
    this.#groups.set(name, new Map());
    return arn(`schedule-group/${name}`);
  }

  createSchedule(name: unknown, body: Record<string, unknown>): Schedule {
    assertValidName(name, 'Name');
    const fields = readScheduleBody(body);
    const groupName = groupNameOf(body.GroupName);
    const inGroup = this.#schedulesIn(groupName);
    if (inGroup.has(name)) {
      throw new SchedulerError('ConflictException', `Schedule ${name} already exists.`);
    }
    const schedule = { ...fields, name, groupName, arn: arn(`schedule/${groupName}/${name}`) };
    inGroup.set(name, schedule);
    return schedule;
  }

  /** A new object, so the runner sees a schedule it has not fired yet. */
  updateSchedule(name: unknown, body: Record<string, unknown>): Schedule {
    const fields = readScheduleBody(body);
    const current = this.#find(name, body.GroupName);
    const schedule = { ...current, ...fields };
    this.#schedulesIn(current.groupName).set(current.name, schedule);
    return schedule;
  }

  getSchedule(name: unknown, groupName: unknown): Schedule {
    return this.#find(name, groupName);
  }

  deleteSchedule(name: unknown, groupName: unknown): void {
    const schedule = this.#find(name, groupName);
    this.#schedulesIn(schedule.groupName).delete(schedule.name);
  }

  /** Deletes `schedule` only if it was not updated or replaced in the meantime. */
  deleteIfUnchanged(schedule: Schedule): void {
    const inGroup = this.#groups.get(schedule.groupName);
    if (inGroup?.get(schedule.name) === schedule) inGroup.delete(schedule.name);
  }

  allSchedules(): Schedule[] {
    return [...this.#groups.values()].flatMap((inGroup) => [...inGroup.values()]);
  }

  #find(name: unknown, groupName: unknown): Schedule {
    assertValidName(name, 'Name');
    const schedule = this.#schedulesIn(groupNameOf(groupName)).get(name);
    if (schedule === undefined) {
      throw new SchedulerError('ResourceNotFoundException', `Schedule ${name} does not exist.`);
    }
    return schedule;
  }

  #schedulesIn(groupName: string): Map<string, Schedule> {
    const inGroup = this.#groups.get(groupName);
    if (inGroup === undefined) {
      throw new SchedulerError(
        'ResourceNotFoundException',
        `Schedule group ${groupName} does not exist.`,
      );
    }
    return inGroup;
  }
}

function arn(resource: string): string {
  return `arn:aws:scheduler:${REGION_AND_ACCOUNT}:${resource}`;
}

/** The group a request names; leaving it out means the default group. */
function groupNameOf(value: unknown): string {
  return value === undefined || value === '' ? DEFAULT_GROUP : String(value);
}
