import { Fn, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  Deployment,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Stage,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ERROR_RESPONSES } from '#lib/constructs/api-error-responses.ts';
import { CustomDomain } from '#lib/constructs/custom-domain.ts';
import type { DomainPlan } from '#lib/own-domain.ts';
import { answersHead, type RouteFunction } from '#routes';
import type { ApiStack } from './api-stack.ts';
import { isSubmitRoute } from './route-area-stack.ts';

export interface StageStackProps {
  api: ApiStack;
  /** The functions of the route table: what the deployment's fingerprint is made of. */
  functions: readonly RouteFunction[];
  stageName: string;
  /** Steady requests a second each method takes (API Gateway applies `/*` per method). */
  throttleRatePerSecond: number;
  throttleBurst: number;
  /** The public submit route's own method throttle, within the stage's. */
  submitThrottle: { ratePerSecond: number; burst: number };
  logRetention: RetentionDays;
  tracing: boolean;
  /** The deployer's own name for the API (docs/deploying.md#your-own-domain). */
  domain?: NonNullable<DomainPlan['api']>;
  /** A WAF web ACL (REGIONAL scope, the stack's region) to put in front of the stage; empty: none. */
  webAclArn: string;
}

/**
 * What makes the API reachable: its deployment and stage (access and
 * execution logs, throttles, detailed metrics on the submit route only),
 * the deployer's domain and an optional WAF web ACL. A nested stack that
 * comes after every stack holding methods: CloudFormation snapshots the
 * API's methods when it creates a deployment, and a new deployment (a new
 * logical id) is made whenever the fingerprint of the route table changes.
 */
export class StageStack extends NestedStack {
  readonly stage: Stage;
  readonly deployment: Deployment;
  readonly customDomain: CustomDomain | undefined;

  constructor(scope: Construct, id: string, props: StageStackProps) {
    super(scope, id, {
      description: `Deployment, stage and domain of the API of ${Stack.of(scope).stackName}`,
    });
    const { restApi } = props.api;

    this.deployment = new Deployment(this, 'Deployment', {
      api: restApi,
      description: 'The methods of lambdas/routes.ts and the gateway responses',
    });
    // Methods in other stacks do not reach the deployment's logical id by themselves.
    this.deployment.addToLogicalId(deploymentFingerprint(props.functions));

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention });
    // API Gateway creates `API-Gateway-Execution-Logs_{api id}/{stage}` on its first log
    // line, without a retention: created here first (the stage waits for it), it expires
    // like every other log group of the stack.
    const executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: Fn.join('', [
        'API-Gateway-Execution-Logs_',
        restApi.restApiId,
        '/',
        props.stageName,
      ]),
      retention: props.logRetention,
    });

    const submit = props.functions.flatMap((fn) => fn.routes).find(isSubmitRoute);
    this.stage = new Stage(this, 'Stage', {
      deployment: this.deployment,
      stageName: props.stageName,
      accessLogDestination: new LogGroupLogDestination(accessLogs),
      accessLogFormat: ACCESS_LOG_FORMAT,
      // Errors only: INFO wrote a line for every request on top of the access log.
      loggingLevel: MethodLoggingLevel.ERROR,
      // Data trace would copy request bodies (form answers, API keys) into logs.
      dataTraceEnabled: false,
      // Per-method metrics cost per method; the stage's own (ApiName, Stage) stay.
      metricsEnabled: false,
      tracingEnabled: props.tracing,
      throttlingRateLimit: props.throttleRatePerSecond,
      throttlingBurstLimit: props.throttleBurst,
      methodOptions: submit
        ? {
            [`${submit.path}/${submit.method}`]: {
              throttlingRateLimit: props.submitThrottle.ratePerSecond,
              throttlingBurstLimit: props.submitThrottle.burst,
              // Its p99 latency alarm reads the method's own metrics.
              metricsEnabled: true,
            },
          }
        : undefined,
    });
    this.stage.node.addDependency(executionLogs);

    if (props.domain) {
      this.customDomain = new CustomDomain(this, 'CustomDomain', {
        plan: props.domain,
        api: restApi,
        stage: this.stage,
      });
    }
    if (props.webAclArn) {
      new CfnWebACLAssociation(this, 'WebAcl', {
        resourceArn: this.stage.stageArn,
        webAclArn: props.webAclArn,
      });
    } else {
      Validations.of(this.stage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF by default (cost for self-hosters); stage throttling plus per-IP, per-form and per-key rate limits in the service cover abuse. `-c webAclArn=…` attaches a web ACL (docs/deploying.md#settings).',
      });
    }
  }
}

/**
 * What the deployed API is made of, as data: each method with its
 * function, transfer mode and timeout, and the gateway's error answers.
 * Any change gives the deployment a new logical id, so CloudFormation
 * deploys the API anew.
 */
export function deploymentFingerprint(functions: readonly RouteFunction[]): unknown {
  return {
    methods: functions.flatMap((fn) =>
      fn.routes.map((route) => [
        route.method,
        route.path,
        fn.name,
        route.streaming,
        route.timeoutSeconds,
        answersHead(route),
      ]),
    ),
    gatewayResponses: ERROR_RESPONSES,
  };
}

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
