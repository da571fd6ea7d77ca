import { readFileSync } from 'node:fs';
import { type App, type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
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
  /** The root stack's template: the shared state (table, buckets, queues, secrets). */
  template: Template;
  /**
   * The observability nested stack's template: the alarms (but the
   * dead-letter depth alarms, which stay with their queues), the alarm topic
   * and its key, the dashboard (lib/constructs/observability.ts).
   */
  observability: Template;
  /** Every stack's template, the root's first, by the stack's construct path. */
  templates: ReadonlyMap<string, Template>;
  /**
   * Every stack's resources in one template, for questions about the whole
   * deployment (every function, every policy). Logical ids are unique across
   * the stacks (checked).
   */
  all: Template;
  /**
   * `all`, with every value another stack passes in as its origin names it
   * (`resolved`): a nested function's `TABLE_NAME` reads
   * `{ Ref: <the table's logical id> }`, as if the deployment were one stack.
   */
  flat: Template;
  /** The template of the stack that holds `construct`. */
  templateOf(construct: IConstruct): Template;
  /**
   * How the observability nested stack names a value of another stack
   * (`{ Ref: id }` of a function, `{ 'Fn::GetAtt': [id, 'QueueName'] }`):
   * a `Ref` to the parameter that carries it in.
   */
  nestedRef(value: unknown): { Ref: string };
  /**
   * How the template of `consumer`'s stack names `producer` (its `Ref`, or its
   * attribute `attribute`): itself in the same stack, else the parameter or
   * nested output that carries it there.
   */
  refIn(consumer: IConstruct, producer: IConstruct, attribute?: string): unknown;
  /**
   * Where a value of `consumer`'s stack comes from: a parameter followed to
   * the value its parent passes, a nested output to the value it names,
   * until a resource of some stack. Returns that stack's path and the value.
   */
  origin(consumer: IConstruct | Stack, value: unknown): { stack: string; value: unknown };
  /**
   * `value` (any JSON of `consumer`'s stack, or of the stack at that path) with
   * every parameter and nested output in it replaced by its origin's value: a
   * nested stack's view of the table reads `{ Ref: <the table's logical id> }`,
   * as in the root stack's own template.
   */
  resolved<T>(consumer: IConstruct | Stack | string, value: T): T;
  /** The construct built for a route, the fallback or a worker, by name. */
  functionOf(name: string): ServiceFunction;
  /** A construct's logical id in its own stack's template. */
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

/** The root stack and every nested stack under it, the root first. */
export function stacksOf(stack: Stack): Stack[] {
  return [
    stack,
    ...stack.node.findAll().filter((c): c is Stack => c instanceof Stack && c !== stack),
  ];
}

/**
 * The default deployment, synthesized once per worker: infra files share a module cache
 * (vitest.config.ts) and about twenty tests read it, at over a second each. Only read it:
 * its app and templates are every caller's.
 */
let defaultDeployment: Synthesized | undefined;

export function synthesize(options: BuildOptions = {}): Synthesized {
  const isDefault =
    options.routes === undefined &&
    options.workers === undefined &&
    Object.keys(options.context ?? {}).length === 0;
  if (!isDefault) return synthesizeAnew(options);
  defaultDeployment ??= synthesizeAnew(options);
  return defaultDeployment;
}

function synthesizeAnew(options: BuildOptions): Synthesized {
  const { app, stack } = buildApp(options);
  const stacks = stacksOf(stack);
  const templates = new Map(stacks.map((each) => [each.node.path, Template.fromStack(each)]));
  const templateOfStack = (each: Stack) => templates.get(each.node.path)!;
  const template = templateOfStack(stack);
  const observability = templateOfStack(stack.observability);

  const merged: Record<string, unknown> = {};
  for (const [path, each] of templates) {
    for (const [id, resource] of Object.entries(each.toJSON().Resources ?? {})) {
      if (id in merged) throw new Error(`logical id ${id} of ${path} is in two stacks`);
      merged[id] = resource;
    }
  }

  const logicalId = (construct: IConstruct): string => {
    const element = (construct.node.defaultChild ?? construct) as CfnElement;
    return Stack.of(element).resolve(element.logicalId) as string;
  };
  /** A nested stack's parameters as its parent passes them. */
  const passed = (nested: Stack): Record<string, unknown> => {
    const resource = (nested as NestedStack).nestedStackResource as CfnElement;
    const parent = (nested as NestedStack).nestedStackParent!;
    const id = Stack.of(resource).resolve(resource.logicalId) as string;
    return (templateOfStack(parent).toJSON().Resources[id].Properties.Parameters ?? {}) as Record<
      string,
      unknown
    >;
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

  const origin = (from: IConstruct | Stack, value: unknown): { stack: string; value: unknown } => {
    const at = from instanceof Stack ? from : Stack.of(from);
    const ref = (value as { Ref?: unknown })?.Ref;
    if (typeof ref === 'string' && (at as NestedStack).nestedStackParent) {
      const parameters = passed(at);
      if (ref in parameters) return origin((at as NestedStack).nestedStackParent!, parameters[ref]);
    }
    const getAtt = (value as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt'];
    if (getAtt?.[1]?.startsWith('Outputs.')) {
      const nested = stacks.find(
        (each) =>
          (each as NestedStack).nestedStackParent === at &&
          same(
            Stack.of(at).resolve(
              ((each as NestedStack).nestedStackResource as CfnElement).logicalId,
            ),
            getAtt[0],
          ),
      );
      if (nested) {
        const output =
          templateOfStack(nested).toJSON().Outputs?.[getAtt[1].slice('Outputs.'.length)];
        return origin(nested, (output as { Value: unknown }).Value);
      }
    }
    return { stack: at.node.path, value };
  };

  const refIn = (consumer: IConstruct, producer: IConstruct, attribute?: string): unknown => {
    const id = logicalId(producer);
    const own = attribute ? { 'Fn::GetAtt': [id, attribute] } : { Ref: id };
    const producerStack = Stack.of((producer.node.defaultChild ?? producer) as IConstruct);
    const consumerStack = Stack.of(consumer);
    if (producerStack === consumerStack) return own;
    const wanted = { stack: producerStack.node.path, value: own };
    // Every parameter of the consumer's stack, and every output of its nested stacks.
    const candidates: unknown[] = [
      ...Object.keys(templateOfStack(consumerStack).toJSON().Parameters ?? {}).map((name) => ({
        Ref: name,
      })),
      ...stacks
        .filter((each) => (each as NestedStack).nestedStackParent === consumerStack)
        .flatMap((each) => {
          const nestedId = consumerStack.resolve(
            ((each as NestedStack).nestedStackResource as CfnElement).logicalId,
          );
          return Object.keys(templateOfStack(each).toJSON().Outputs ?? {}).map((name) => ({
            'Fn::GetAtt': [nestedId, `Outputs.${name}`],
          }));
        }),
    ];
    const found = candidates.filter((candidate) => same(origin(consumerStack, candidate), wanted));
    if (found.length !== 1) {
      throw new Error(
        `${found.length} values of ${consumerStack.node.path} carry ${JSON.stringify(own)} of ${producerStack.node.path}`,
      );
    }
    return found[0];
  };

  const resolved = <T>(consumer: IConstruct | Stack | string, value: T): T => {
    const at =
      typeof consumer === 'string' ? stacks.find((each) => each.node.path === consumer)! : consumer;
    const walk = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(walk);
      if (!node || typeof node !== 'object') return node;
      const keys = Object.keys(node);
      if (keys.length === 1 && (keys[0] === 'Ref' || keys[0] === 'Fn::GetAtt')) {
        const found = origin(at, node);
        if (found.value !== node) return found.value;
      }
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)]));
    };
    return walk(value) as T;
  };

  const nestedRef = (value: unknown) => {
    const carried = passed(stack.observability);
    const found = Object.entries(carried).filter(([, given]) => same(given, value));
    if (found.length !== 1) {
      throw new Error(`${found.length} nested stack parameters carry ${JSON.stringify(value)}`);
    }
    return { Ref: found[0]![0] };
  };
  const flattened: Record<string, unknown> = {};
  for (const [path, each] of templates) {
    for (const [id, resource] of Object.entries(each.toJSON().Resources ?? {})) {
      flattened[id] = resolved(path, resource);
    }
  }
  const table = options.routes ?? routes;
  return {
    app,
    stack,
    template,
    observability,
    templates,
    all: Template.fromJSON({ Resources: merged }),
    flat: Template.fromJSON({ Resources: flattened }),
    templateOf: (construct) => templateOfStack(Stack.of(construct)),
    nestedRef,
    refIn,
    origin,
    resolved,
    functionOf: (name) => stack.functionOf(name, table),
    logicalId,
  };
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

/**
 * Every statement of every policy attached to the role `roleId` (a logical id,
 * unique across stacks), with values of other stacks as their own stack names
 * them (Synthesized.resolved).
 */
export function statementsOfRole(target: Synthesized, roleId: string): PolicyStatement[] {
  return [...target.templates].flatMap(([path, template]) =>
    Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
      .map(propertiesOf)
      .filter((policy) =>
        (policy.Roles as unknown[]).some(
          (r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId }),
        ),
      )
      .flatMap((policy) =>
        target.resolved(
          path,
          (policy.PolicyDocument as { Statement: PolicyStatement[] }).Statement,
        ),
      ),
  );
}

/** The statements of a route's, the fallback's or a worker's role, by name. */
export function statementsOf(target: Synthesized, name: string): PolicyStatement[] {
  return statementsOfRole(target, target.logicalId(target.functionOf(name).role));
}
