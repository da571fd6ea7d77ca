import {
  assertValidName,
  readScheduleBody,
  type Schedule,
  type ScheduleGroup,
  SchedulerError,
} from './scheduler-model.ts';

export const DEFAULT_GROUP = 'default';
/** The account id local ARNs carry; nothing checks it. */
const ACCOUNT = '000000000000';

export interface ListFilter {
  groupName?: string;
  namePrefix?: string;
  state?: string;
}

/** Schedules and groups in memory, with the service's existence and conflict rules. */
export class SchedulerStore {
  readonly #region: string;
  readonly #groups = new Map<string, ScheduleGroup>();
  /** group name -> schedule name -> schedule */
  readonly #schedules = new Map<string, Map<string, Schedule>>();

  constructor(region: string) {
    this.#region = region;
    this.createGroup(DEFAULT_GROUP);
  }

  createSchedule(name: unknown, body: Record<string, unknown>): Schedule {
    assertValidName(name, 'Name');
    const fields = readScheduleBody(body);
    const groupName = this.#groupNameOf(body.GroupName);
    const inGroup = this.#schedulesIn(groupName);
    if (inGroup.has(name)) {
      throw new SchedulerError('ConflictException', `Schedule ${name} already exists.`);
    }
    const now = new Date();
    const schedule: Schedule = {
      ...fields,
      name,
      groupName,
      arn: this.#arn(`schedule/${groupName}/${name}`),
      createdAt: now,
      modifiedAt: now,
    };
    inGroup.set(name, schedule);
    return schedule;
  }

  /** UpdateSchedule replaces every field: whatever the body leaves out returns to its default. */
  updateSchedule(name: unknown, body: Record<string, unknown>): Schedule {
    assertValidName(name, 'Name');
    const fields = readScheduleBody(body);
    const current = this.getSchedule(name, body.GroupName);
    const schedule: Schedule = { ...current, ...fields, modifiedAt: new Date() };
    this.#schedulesIn(current.groupName).set(name, schedule);
    return schedule;
  }

  getSchedule(name: unknown, groupName: unknown): Schedule {
    assertValidName(name, 'Name');
    const schedule = this.#schedulesIn(this.#groupNameOf(groupName)).get(name);
    if (schedule === undefined) {
      throw new SchedulerError('ResourceNotFoundException', `Schedule ${name} does not exist.`);
    }
    return schedule;
  }

  deleteSchedule(name: unknown, groupName: unknown): void {
    const schedule = this.getSchedule(name, groupName);
    this.#schedulesIn(schedule.groupName).delete(schedule.name);
  }

  /** Deletes `schedule` only if it was not updated or replaced in the meantime. */
  deleteIfUnchanged(schedule: Schedule): void {
    const inGroup = this.#schedules.get(schedule.groupName);
    if (inGroup?.get(schedule.name) === schedule) inGroup.delete(schedule.name);
  }

  listSchedules(filter: ListFilter): Schedule[] {
    const groups =
      filter.groupName === undefined
        ? [...this.#groups.keys()]
        : [this.#groupNameOf(filter.groupName)];
    return groups
      .flatMap((group) => [...this.#schedulesIn(group).values()])
      .filter((s) => filter.namePrefix === undefined || s.name.startsWith(filter.namePrefix))
      .filter((s) => filter.state === undefined || s.state === filter.state)
      .sort((a, b) => a.arn.localeCompare(b.arn));
  }

  allSchedules(): Schedule[] {
    return [...this.#schedules.values()].flatMap((inGroup) => [...inGroup.values()]);
  }

  createGroup(name: unknown): ScheduleGroup {
    assertValidName(name, 'Name');
    if (this.#groups.has(name)) {
      throw new SchedulerError('ConflictException', `Schedule group ${name} already exists.`);
    }
    const now = new Date();
    const group = {
      name,
      arn: this.#arn(`schedule-group/${name}`),
      createdAt: now,
      modifiedAt: now,
    };
    this.#groups.set(name, group);
    this.#schedules.set(name, new Map());
    return group;
  }

  getGroup(name: unknown): ScheduleGroup {
    assertValidName(name, 'Name');
    const group = this.#groups.get(name);
    if (group === undefined) {
      throw new SchedulerError(
        'ResourceNotFoundException',
        `Schedule group ${name} does not exist.`,
      );
    }
    return group;
  }

  listGroups(namePrefix: string | undefined): ScheduleGroup[] {
    return [...this.#groups.values()]
      .filter((g) => namePrefix === undefined || g.name.startsWith(namePrefix))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Deleting a group deletes its schedules, as the service does (there asynchronously). */
  deleteGroup(name: unknown): void {
    const group = this.getGroup(name);
    if (group.name === DEFAULT_GROUP) {
      throw new SchedulerError(
        'ValidationException',
        'The default schedule group cannot be deleted.',
      );
    }
    this.#groups.delete(group.name);
    this.#schedules.delete(group.name);
  }

  #groupNameOf(value: unknown): string {
    if (value === undefined || value === '') return DEFAULT_GROUP;
    return this.getGroup(value).name;
  }

  #schedulesIn(groupName: string): Map<string, Schedule> {
    const inGroup = this.#schedules.get(groupName);
    if (inGroup === undefined) {
      throw new SchedulerError(
        'ResourceNotFoundException',
        `Schedule group ${groupName} does not exist.`,
      );
    }
    return inGroup;
  }

  #arn(resource: string): string {
    return `arn:aws:scheduler:${this.#region}:${ACCOUNT}:${resource}`;
  }
}
