import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import {
  AwsIntegration,
  type IResource,
  Resource,
  ResponseTransferMode,
} from 'aws-cdk-lib/aws-apigateway';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { type AccessTargets, grantAccess } from '#lib/constructs/access.ts';
import { type FunctionDefaults, ServiceFunction } from '#lib/constructs/service-function.ts';
import { answersHead, type Route, type RouteArea, type RouteFunction } from '#routes';
import { type ApiStack, acknowledgeOpenMethods } from './api-stack.ts';

export interface RouteAreaStackProps {
  area: RouteArea;
  /** The route table's functions of this area (routeFunctions). */
  functions: readonly RouteFunction[];
  api: ApiStack;
  /** The stage's name: each invoke permission names its one method on that stage. */
  stageName: string;
  /** Absolute path of `lambdas/`. */
  lambdasDir: string;
  functionDefaults: FunctionDefaults;
  targets: AccessTargets;
  /** Concurrent executions reserved for the submit function; 0: none (the default). */
  submitReservedConcurrency: number;
}

/** API Gateway's limit for a buffered (non-streamed) integration. */
const BUFFERED_TIMEOUT_SECONDS = 29;
/** A streamed integration's timeout may reach 15 minutes. */
const STREAM_TIMEOUT_SECONDS = 900;

/** The public submit endpoint: its own throttle, detailed metrics and (optional) reserved concurrency. */
export const isSubmitRoute = (route: Pick<Route, 'method' | 'path'>): boolean =>
  route.method === 'POST' && route.path === '/s/{key}';

/**
 * One area of the route table (lambdas/routes.ts `area`) as a nested stack
 * (docs/architecture.md#stacks): each function of the area with exactly the
 * grants of its routes, each route's method on the API's resource of its
 * path, and one invoke permission per method. A new route of the area lands
 * here and touches no other stack but the API's, for a new path.
 */
export class RouteAreaStack extends NestedStack {
  readonly functions = new Map<string, ServiceFunction>();
  private readonly props: RouteAreaStackProps;
  private readonly paths = new Map<string, IResource>();

  constructor(scope: Construct, id: string, props: RouteAreaStackProps) {
    super(scope, id, {
      description: `Routes of the ${props.area} area of ${Stack.of(scope).stackName}`,
    });
    this.props = props;
    acknowledgeOpenMethods(this);
    for (const spec of props.functions) {
      if (spec.area !== props.area) {
        throw new Error(`function ${spec.name} is of area ${spec.area}, not ${props.area}`);
      }
      const [first] = spec.routes;
      const fn = new ServiceFunction(this, spec.name, {
        ...props.functionDefaults,
        entry: `${props.lambdasDir}${spec.handler}`,
        description:
          spec.routes.length === 1 && first
            ? `${first.method} ${first.path}: ${first.summary}`
            : `Routes of group ${spec.name}: ${spec.routes.map((r) => r.name).join(', ')}`,
        memoryMb: spec.memoryMb,
        timeoutSeconds: spec.timeoutSeconds,
        reservedConcurrency: spec.routes.some(isSubmitRoute)
          ? props.submitReservedConcurrency
          : undefined,
      });
      grantAccess(fn, spec.access, props.targets);
      for (const route of spec.routes) this.addRoute(route, fn);
      this.functions.set(spec.name, fn);
    }
  }

  private addRoute(route: Route, fn: ServiceFunction): void {
    if (!route.streaming && route.timeoutSeconds > BUFFERED_TIMEOUT_SECONDS) {
      throw new Error(
        `route ${route.name}: timeoutSeconds ${route.timeoutSeconds} exceeds API Gateway's ${BUFFERED_TIMEOUT_SECONDS} s for buffered responses; stream it or shorten it`,
      );
    }
    const arn = fn.lambda.functionArn;
    // A Lambda proxy integration, as LambdaIntegration builds it, without its permission:
    // that one would name the stage by a reference to StageStack, which comes after this
    // stack; the permission below names it by its literal name instead.
    const integration = new AwsIntegration({
      proxy: true,
      service: 'lambda',
      // STREAM calls InvokeWithResponseStream: past the 6 MB buffered response limit (CSV
      // export), and its timeout may reach 15 minutes (the stream still closes after 30 s
      // idle on an edge API).
      path: route.streaming
        ? `2021-11-15/functions/${arn}/response-streaming-invocations`
        : `2015-03-31/functions/${arn}/invocations`,
      options: {
        responseTransferMode: route.streaming
          ? ResponseTransferMode.STREAM
          : ResponseTransferMode.BUFFERED,
        timeout: route.streaming
          ? Duration.seconds(Math.min(route.timeoutSeconds, STREAM_TIMEOUT_SECONDS))
          : undefined,
      },
    });
    const resource = this.pathOf(route.path);
    const methods = answersHead(route) ? [route.method, 'HEAD'] : [route.method];
    for (const method of methods) {
      resource.addMethod(method, integration);
      fn.lambda.addPermission(`Invoke${method}${route.name}`, {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.props.api.restApi.arnForExecuteApi(
          method,
          route.path.replace(/\{[^}]*\}/g, '*'),
          this.props.stageName,
        ),
      });
    }
  }

  /** The API's resource of `path`, as seen from this stack (its id comes in as a parameter). */
  private pathOf(path: string): IResource {
    let resource = this.paths.get(path);
    if (!resource) {
      resource = Resource.fromResourceAttributes(this, `Path ${path.replaceAll('/', '|')}`, {
        restApi: this.props.api.restApi,
        resourceId: this.props.api.resourceOf(path).resourceId,
        path,
      });
      this.paths.set(path, resource);
    }
    return resource;
  }
}
