import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledgeWildcardResource } from './nag-finding.ts';
import { deadLetterAlarm, deadLetterQueue } from './queues.ts';
import type { ServiceFunction } from './service-function.ts';

/**
 * One-time schedules (form auto-close) are created by the forms API at run
 * time, because self-deleting schedules cannot be declared in CloudFormation.
 * The stack provides what that needs: a schedule group to confine them, the
 * role EventBridge Scheduler assumes to invoke the target, and the grant that
 * lets a function manage schedules in the group and pass that role.
 *
 * Targets are the workers with a 'schedule' trigger: every function that
 * manages schedules gets `<CONSTANT_CASE_NAME>_ARN` for each (the local
 * runner sets the same variables), and `SCHEDULE_DLQ_ARN`, the queue a
 * schedule's invocation lands in once the scheduler gives up on it.
 */
/** Lambda's retries of a failed asynchronous invocation (the first try not counted). */
export const ASYNC_RETRY_ATTEMPTS = 2;
/** An event older than this is not tried again: it goes to the on-failure destination. */
export const ASYNC_MAX_EVENT_AGE_SECONDS = 3600;

export class Scheduling extends Construct {
  /**
   * Named by CloudFormation (no fixed physical name) and deleted with the
   * stack, its run-time schedules with it: a fixed, retained name made the
   * next deploy after a rollback or `cdk destroy` fail with "already exists".
   */
  readonly group: CfnScheduleGroup;
  /** The group's generated name (its Ref); functions get it as SCHEDULE_GROUP. */
  readonly groupName: string;
  readonly executionRole: Role;
  readonly deadLetterQueue: Queue;
  /**
   * The on-failure destination of the targets' asynchronous invocations: the
   * scheduler invokes a target asynchronously, so once Lambda accepts the
   * event the schedule's own retries and DLQ no longer apply, and a target
   * that keeps failing would be dropped after Lambda's retries.
   */
  private invocationFailureQueue: Queue | undefined;
  private readonly managers: ServiceFunction[] = [];
  private readonly targets = new Map<string, ServiceFunction>();

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.group = new CfnScheduleGroup(this, 'Group');
    this.group.applyRemovalPolicy(RemovalPolicy.DESTROY);
    this.groupName = this.group.ref;
    this.executionRole = new Role(this, 'ExecutionRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        // Confused-deputy guard: only schedules of this account assume it.
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'Assumed by EventBridge Scheduler to invoke schedule targets',
    });
    this.deadLetterQueue = deadLetterQueue(
      this,
      'DeadLetters',
      'Dead-letter queue of the run-time schedules (their DeadLetterConfig): EventBridge Scheduler sends to it, no RedrivePolicy does.',
    );
    deadLetterAlarm(this, this.deadLetterQueue, 'the run-time schedules');
    this.executionRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['sqs:SendMessage'],
        resources: [this.deadLetterQueue.queueArn],
      }),
    );
  }

  /** Built with the first target, like the queues: no target, no queue. */
  invocationFailures(): Queue {
    if (!this.invocationFailureQueue) {
      const failed = new Construct(this, 'InvocationFailed');
      this.invocationFailureQueue = deadLetterQueue(
        failed,
        'Queue',
        'On-failure destination of the schedule targets’ asynchronous invocations: it is the dead-letter queue itself (Lambda, not a RedrivePolicy, sends to it).',
      );
      deadLetterAlarm(failed, this.invocationFailureQueue, 'the schedule targets');
    }
    return this.invocationFailureQueue;
  }

  /**
   * Lets the scheduler invoke `target` (unqualified ARN only: schedules name
   * the function, never a version or alias) and tells every schedule manager
   * its ARN.
   */
  /** `variable` hands the target's ARN to every function that manages schedules. */
  allowInvoke(variable: string, target: ServiceFunction): void {
    if (this.targets.has(variable)) throw new Error(`schedule target "${variable}" added twice`);
    this.targets.set(variable, target);
    this.executionRole.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [target.lambda.functionArn],
      }),
    );
    for (const manager of this.managers) this.announceTarget(manager, variable, target);
    const failures = this.invocationFailures();
    target.lambda.configureAsyncInvoke({
      retryAttempts: ASYNC_RETRY_ATTEMPTS,
      maxEventAge: Duration.seconds(ASYNC_MAX_EVENT_AGE_SECONDS),
      // The queue's ARN without SqsDestination's grant (which adds
      // GetQueueAttributes and GetQueueUrl): Lambda needs SendMessage only.
      onFailure: { bind: () => ({ destination: failures.queueArn }) },
    });
    target.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [failures.queueArn] }),
    );
  }

  /**
   * Create and move schedules (scheduleFormClose): the group, the role to
   * pass and the DLQ in the environment, each target's ARN.
   */
  grantManage(fn: ServiceFunction): void {
    this.managers.push(fn);
    for (const [variable, target] of this.targets) this.announceTarget(fn, variable, target);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', this.executionRole.roleArn);
    fn.addEnvironment('SCHEDULE_DLQ_ARN', this.deadLetterQueue.queueArn);
    this.grantScheduleActions(fn, [
      'scheduler:CreateSchedule',
      'scheduler:UpdateSchedule',
      'scheduler:DeleteSchedule',
    ]);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.executionRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }

  /** Delete schedules only (cancelFormClose): the group's name and DeleteSchedule, no PassRole. */
  grantCancel(fn: ServiceFunction): void {
    this.grantScheduleActions(fn, ['scheduler:DeleteSchedule']);
  }

  private grantScheduleActions(fn: ServiceFunction, actions: string[]): void {
    fn.addEnvironment('SCHEDULE_GROUP', this.groupName);
    const schedulesInGroup = Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.groupName}/*`,
    });
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [schedulesInGroup] }));
    acknowledgeWildcardResource(
      fn.role,
      schedulesInGroup,
      'Schedule names derive from form ids at run time; the grant is confined to this stack’s schedule group.',
    );
  }

  private announceTarget(
    manager: ServiceFunction,
    variable: string,
    target: ServiceFunction,
  ): void {
    if (manager === target) {
      // Its own ARN in its own environment is a circular reference in
      // CloudFormation; a handler finds it in context.invokedFunctionArn.
      throw new Error(
        `The schedule target of ${variable} manages schedules itself: its own ARN cannot be in its environment (use context.invokedFunctionArn).`,
      );
    }
    manager.addEnvironment(variable, target.lambda.functionArn);
  }
}
