import { Aws, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { wildcardResourceFinding } from './nag-finding.ts';
import type { ServiceFunction } from './service-function.ts';

/**
 * One-time schedules (form auto-close) are created by the forms API at run
 * time, because self-deleting schedules cannot be declared in CloudFormation.
 * The stack provides what that needs: a schedule group to confine them, the
 * role EventBridge Scheduler assumes to invoke the target, and the grant that
 * lets a function manage schedules in the group and pass that role.
 */
export class Scheduling extends Construct {
  readonly group: ScheduleGroup;
  readonly executionRole: Role;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.group = new ScheduleGroup(this, 'Group');
    this.executionRole = new Role(this, 'ExecutionRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        // Confused-deputy guard: only schedules of this account assume it.
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'Assumed by EventBridge Scheduler to invoke schedule targets',
    });
  }

  /** Lets the scheduler invoke `target` (the form closer, added later). */
  allowInvoke(target: IFunction): void {
    target.grantInvoke(this.executionRole);
  }

  grantManage(fn: ServiceFunction): void {
    fn.addEnvironment('SCHEDULE_GROUP', this.group.scheduleGroupName);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', this.executionRole.roleArn);
    const schedulesInGroup = Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.group.scheduleGroupName}/*`,
    });
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'scheduler:GetSchedule',
          'scheduler:CreateSchedule',
          'scheduler:UpdateSchedule',
          'scheduler:DeleteSchedule',
        ],
        resources: [schedulesInGroup],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.executionRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: wildcardResourceFinding(this, schedulesInGroup),
      reason:
        'Schedule names derive from form ids at run time; the grant is confined to this stack’s schedule group.',
    });
  }
}
