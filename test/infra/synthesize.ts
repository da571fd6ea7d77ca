import { readFileSync } from 'node:fs';
import type { App, CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { ServiceFunction } from '#lib/constructs/service-function.ts';
import { createFormServiceApp } from '#lib/form-service-app.ts';
import type { FormServiceStack } from '#lib/form-service-stack.ts';
import { settingDefaults } from '#lib/settings.ts';
import { type Route, routes } from '#routes';
import type { Worker } from '#workers';

/**
 * What a deployment gets from `cdk deploy` with no `-c`: every setting's
 * default (lambdas/settings.ts, lib/settings.ts), under cdk.json's context.
 * `new App()` in a test reads neither itself.
 */
export const cdkJsonContext: Record<string, unknown> = {
  ...settingDefaults(),
  ...JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context,
};

export interface Synthesized {
  app: App;
  stack: FormServiceStack;
  /** The main stack's template. */
  template: Template;
  /**
   * The observability nested stack's template: the alarms (but the
   * dead-letter depth alarms, which stay with their queues), the alarm topic
   * and its key, the dashboard (lib/constructs/observability.ts).
   */
  observability: Template;
  /**
   * How the nested stack names a value of the main stack (`{ Ref: id }` of a
   * function, `{ 'Fn::GetAtt': [id, 'QueueName'] }`): a `Ref` to the
   * parameter that carries it in.
   */
  nestedRef(value: unknown): { Ref: string };
  /** The construct built for a route, the fallback or a worker, by name. */
  functionOf(name: string): ServiceFunction;
  logicalId(construct: IConstruct): string;
}

/**
 * The app exactly as bin/app.ts builds it, minus the slow parts: no esbuild
 * (bundling skipped for every stack) and no built-in CloudFormation
 * validation. NodejsFunction still checks that each handler file exists.
 */
export interface BuildOptions {
  context?: Record<string, unknown>;
  routes?: readonly Route[];
  workers?: readonly Worker[];
}

/** The construct tree only; nothing synthesized (so no validation plugin runs). */
export function buildApp(options: BuildOptions = {}): { app: App; stack: FormServiceStack } {
  return createFormServiceApp(
    {
      context: {
        ...cdkJsonContext,
        ...options.context,
        'aws:cdk:bundling-stacks': [],
      },
      builtinCloudFormationValidation: false,
    },
    { routes: options.routes, workers: options.workers },
  );
}

export function synthesize(options: BuildOptions = {}): Synthesized {
  const { app, stack } = buildApp(options);
  const template = Template.fromStack(stack);
  const observability = Template.fromStack(stack.observability);
  const nestedStackId = stack.resolve(
    (stack.observability.nestedStackResource as CfnElement).logicalId,
  ) as string;
  const carried = (
    template.toJSON().Resources[nestedStackId].Properties as { Parameters: Record<string, unknown> }
  ).Parameters;
  const nestedRef = (value: unknown) => {
    const found = Object.entries(carried).filter(
      ([, given]) => JSON.stringify(given) === JSON.stringify(value),
    );
    if (found.length !== 1) {
      throw new Error(`${found.length} nested stack parameters carry ${JSON.stringify(value)}`);
    }
    return { Ref: found[0]![0] };
  };
  const logicalId = (construct: IConstruct): string => {
    const element = (construct.node.defaultChild ?? construct) as CfnElement;
    return stack.resolve(element.logicalId) as string;
  };
  // A grouped route's function is its group's (lambdas/routes.ts `group`).
  const table = options.routes ?? routes;
  const functionOf = (name: string): ServiceFunction => {
    const group = table.find((route) => route.name === name)?.group;
    const found = stack.node.tryFindChild(group ?? name);
    if (!found) throw new Error(`no function construct named "${name}" in the stack`);
    return found as ServiceFunction;
  };
  return { app, stack, template, observability, nestedRef, functionOf, logicalId };
}

type Json = Record<string, unknown>;

export function resourcesOfType(template: Template, type: string): Record<string, Json> {
  return template.findResources(type) as Record<string, Json>;
}

export function propertiesOf(resource: Json): Json {
  return (resource.Properties ?? {}) as Json;
}

/** One statement of an IAM policy in the template. */
export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Every statement of every policy attached to the role `roleId` (a logical id). */
export function statementsOfRole(target: Synthesized, roleId: string): PolicyStatement[] {
  return Object.values(resourcesOfType(target.template, 'AWS::IAM::Policy'))
    .map(propertiesOf)
    .filter((policy) =>
      (policy.Roles as unknown[]).some(
        (r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId }),
      ),
    )
    .flatMap((policy) => (policy.PolicyDocument as { Statement: PolicyStatement[] }).Statement);
}

/** The statements of a route's, the fallback's or a worker's role, by name. */
export function statementsOf(target: Synthesized, name: string): PolicyStatement[] {
  return statementsOfRole(target, target.logicalId(target.functionOf(name).role));
}
