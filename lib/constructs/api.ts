import { Aws, Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  type CfnStage,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResourceBase,
  ResponseTransferMode,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { answersHead, type Route } from '#routes';
import { addErrorResponses } from './api-error-responses.ts';
import type { ServiceFunction } from './service-function.ts';

export interface ApiProps {
  stageName: string;
  throttleRatePerSecond: number;
  throttleBurst: number;
  /** The public submit route's own method throttle, within the stage's. */
  submitThrottle: { ratePerSecond: number; burst: number };
  logRetention: RetentionDays;
  tracing: boolean;
  cloudWatchRole: boolean;
}

/**
 * The REST API (edge-optimized: Lambda receives the CloudFront viewer
 * headers that submission metadata needs). Routes are added one function
 * each; `routeEverythingElseTo` must come last and sends every method no
 * route takes, on every path, to the fallback function (404/405 in the
 * service's envelope instead of API Gateway's 403).
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  /**
   * `https://{id}.execute-api.{region}.{suffix}/{stage}` built from the API id
   * and the literal stage name: `restApi.url` references the stage, which
   * depends on every method, which depends on the functions that need this
   * URL, so using it here would be a cycle.
   */
  readonly defaultBaseUrl: string;
  private fallbackAttached = false;
  private readonly stage: CfnStage;
  private readonly submitThrottle: ApiProps['submitThrottle'];

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention });

    this.restApi = new RestApi(this, 'RestApi', {
      // Not a physical name (API names need not be unique): tells stacks apart in the console.
      restApiName: Stack.of(this).stackName,
      description: 'Form service: public submit endpoint and management API',
      endpointConfiguration: { types: [EndpointType.EDGE] },
      // Multipart bodies reach Lambda base64-encoded only when listed here.
      binaryMediaTypes: ['multipart/form-data'],
      cloudWatchRole: props.cloudWatchRole,
      deployOptions: {
        stageName: props.stageName,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        loggingLevel: MethodLoggingLevel.INFO,
        // Data trace would copy request bodies (form answers, API keys) into logs.
        dataTraceEnabled: false,
        metricsEnabled: true,
        tracingEnabled: props.tracing,
        throttlingRateLimit: props.throttleRatePerSecond,
        throttlingBurstLimit: props.throttleBurst,
      },
    });
    // The stack's ApiUrl output replaces the construct's auto-named one.
    this.restApi.node.tryRemoveChild('Endpoint');

    // API Gateway creates `API-Gateway-Execution-Logs_{api id}/{stage}` on its
    // first log line, without a retention: created here first (the stage
    // waits for it), it expires like every other log group of the stack.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: Fn.join('', [
        'API-Gateway-Execution-Logs_',
        this.restApi.restApiId,
        '/',
        props.stageName,
      ]),
      retention: props.logRetention,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogs);
    this.stage = this.restApi.deploymentStage.node.defaultChild as CfnStage;
    this.submitThrottle = props.submitThrottle;
    addErrorResponses(this.restApi);

    this.defaultBaseUrl = Fn.join('', [
      'https://',
      this.restApi.restApiId,
      '.execute-api.',
      Aws.REGION,
      '.',
      Aws.URL_SUFFIX,
      '/',
      props.stageName,
    ]);

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Requests are validated by each handler with the same zod schemas the local gateway runs; API Gateway models would be a second, drifting copy, and multipart bodies cannot be modelled.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF by default (cost for self-hosters); stage throttling plus per-IP, per-form and per-key rate limits in the service cover abuse. Attach a web ACL per deployment when needed.',
      },
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'The submit endpoint is public by specification; management routes authenticate a Bearer API key (SHA-256 lookup in the table) in the handler, and unmatched requests reach only the fallback, which answers 404/405.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Callers are API clients holding service-issued API keys, not Cognito users; see APIG4.',
      },
    );
    if (props.cloudWatchRole) {
      Validations.of(this.restApi).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level API Gateway logging role; the AWS-managed policy is the documented one and an inline copy would need the same log-group wildcard.',
      });
    }
  }

  /**
   * A route's method, integrated with its function. A function `shared` by
   * a group's routes gets one invoke permission for this API instead of one
   * per method.
   */
  addRoute(route: Route, fn: ServiceFunction, options: { shared?: boolean } = {}): void {
    if (this.fallbackAttached) throw new Error(`route ${route.name} added after the fallback`);
    if (!route.streaming && route.timeoutSeconds > BUFFERED_TIMEOUT_SECONDS) {
      throw new Error(
        `route ${route.name}: timeoutSeconds ${route.timeoutSeconds} exceeds API Gateway's ${BUFFERED_TIMEOUT_SECONDS} s for buffered responses; stream it or shorten it`,
      );
    }
    const integration = new LambdaIntegration(fn.lambda, {
      // STREAM switches the integration to InvokeWithResponseStream: past the
      // 6 MB buffered response limit (CSV export), and its timeout may reach
      // 15 minutes (the stream still closes after 30 s idle on an edge API).
      responseTransferMode: route.streaming
        ? ResponseTransferMode.STREAM
        : ResponseTransferMode.BUFFERED,
      timeout: route.streaming
        ? Duration.seconds(Math.min(route.timeoutSeconds, STREAM_TIMEOUT_SECONDS))
        : undefined,
      allowTestInvoke: false,
      scopePermissionToMethod: !options.shared,
    });
    const resource = this.restApi.root.resourceForPath(route.path);
    resource.addMethod(route.method, integration);
    if (answersHead(route)) resource.addMethod('HEAD', integration);
    if (isSubmitRoute(route)) this.throttleMethod(route, this.submitThrottle);
  }

  /** A method setting of its own: the stage-wide `/*` one stays for every other method. */
  private throttleMethod(route: Route, throttle: ApiProps['submitThrottle']): void {
    const current = this.stage.methodSettings;
    if (!Array.isArray(current)) throw new Error('the stage’s method settings are not a list');
    this.stage.methodSettings = [
      ...current,
      {
        // API Gateway's encoding: "/" then the path with every "/" as "~1" (/~1s~1{key}).
        resourcePath: `/${route.path.replaceAll('/', '~1')}`,
        httpMethod: route.method,
        throttlingRateLimit: throttle.ratePerSecond,
        throttlingBurstLimit: throttle.burst,
      },
    ];
  }

  /**
   * `ANY` on every resource that exists now plus a root `{proxy+}`: API
   * Gateway prefers an explicit method over `ANY`, so routes still win, and a
   * wrong method on a known path reaches the fallback (405) instead of
   * API Gateway's 403.
   */
  routeEverythingElseTo(fn: ServiceFunction): void {
    this.fallbackAttached = true;
    // One API-wide permission instead of one per method: this function is
    // meant to be reachable from every path and method.
    const integration = new LambdaIntegration(fn.lambda, { scopePermissionToMethod: false });
    const resources = this.restApi.root.node
      .findAll()
      .filter((c): c is ResourceBase => c instanceof ResourceBase);
    for (const resource of [...resources, this.restApi.root.addResource('{proxy+}')]) {
      resource.addMethod('ANY', integration);
    }
  }
}

/** The public submit endpoint: its own throttle and reserved concurrency. */
export const isSubmitRoute = (route: Pick<Route, 'method' | 'path'>): boolean =>
  route.method === 'POST' && route.path === '/s/{key}';

const BUFFERED_TIMEOUT_SECONDS = 29;
const STREAM_TIMEOUT_SECONDS = 900;

/** One JSON object per request; every value quoted because absent ones print `-`. */
const ESCAPED_BY_API_GATEWAY = '$context.error.messageString';

/**
 * One JSON object a line, whatever the request held: API Gateway writes
 * `$context` values as they are, unescaped, so only values that cannot hold
 * a quote or backslash are quoted here. The user agent and the integration's
 * error text can, and have no escaped form: they are left out (the handlers'
 * own log line has the request id to join on). The error message goes in as
 * `$context.error.messageString`, which API Gateway quotes and escapes itself.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    extendedRequestId: '$context.extendedRequestId',
    time: '$context.requestTimeEpoch',
    ip: '$context.identity.sourceIp',
    method: '$context.httpMethod',
    resourcePath: '$context.resourcePath',
    path: '$context.path',
    protocol: '$context.protocol',
    status: '$context.status',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationStatus: '$context.integration.status',
    integrationLatencyMs: '$context.integration.latency',
    errorType: '$context.error.responseType',
    errorMessage: ESCAPED_BY_API_GATEWAY,
  }).replace(`"${ESCAPED_BY_API_GATEWAY}"`, ESCAPED_BY_API_GATEWAY),
);
