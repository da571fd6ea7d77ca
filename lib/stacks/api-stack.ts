import { Aws, Fn, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import {
  EndpointType,
  LambdaIntegration,
  type Resource,
  ResourceBase,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { addErrorResponses } from '#lib/constructs/api-error-responses.ts';
import type { ServiceFunction } from '#lib/constructs/service-function.ts';
import type { Route } from '#routes';

export interface ApiStackProps {
  /** Every route of the table: its path gets a resource here, its method in its area's stack. */
  routes: readonly Route[];
  stageName: string;
  /** Creates the account's API Gateway logging role (once per account and region). */
  cloudWatchRole: boolean;
}

/**
 * The REST API itself and its tree of paths (docs/architecture.md#stacks):
 * the API (edge-optimized: Lambda receives the CloudFront viewer headers
 * that submission metadata needs), a resource for every path of the route
 * table, the fallback's `ANY` on each, and the gateway's own error answers.
 * The routes' methods live in their areas' stacks (RouteAreaStack) and the
 * deployment and stage in StageStack, which comes after them all; this stack
 * needs none of them, so every other stack may read from it.
 */
export class ApiStack extends NestedStack {
  readonly restApi: RestApi;
  /**
   * `https://{id}.execute-api.{region}.{suffix}/{stage}` built from the API id
   * and the literal stage name: the stage is made after the functions that
   * need this URL, in a stack that depends on theirs.
   */
  readonly defaultBaseUrl: string;
  private readonly resources = new Map<string, Resource>();
  private fallbackAttached = false;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    const parent = Stack.of(scope);
    super(scope, id, { description: `REST API and its paths of ${parent.stackName}` });

    this.restApi = new RestApi(this, 'RestApi', {
      // Not a physical name (API names need not be unique): tells stacks apart in the console.
      restApiName: parent.stackName,
      description: 'Form service: public submit endpoint and management API',
      endpointConfiguration: { types: [EndpointType.EDGE] },
      // Multipart bodies reach Lambda base64-encoded only when listed here.
      binaryMediaTypes: ['multipart/form-data'],
      cloudWatchRole: props.cloudWatchRole,
      // The deployment and the stage are StageStack's: they must follow every method.
      deploy: false,
    });
    addErrorResponses(this.restApi);
    for (const route of props.routes) {
      this.resources.set(route.path, this.restApi.root.resourceForPath(route.path));
    }

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

    acknowledgeOpenMethods(this);
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated by each handler with the same zod schemas the local gateway runs; API Gateway models would be a second, drifting copy, and multipart bodies cannot be modelled.',
    });
    if (props.cloudWatchRole) {
      Validations.of(this.restApi).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level API Gateway logging role; the AWS-managed policy is the documented one and an inline copy would need the same log-group wildcard.',
      });
    }
  }

  /** The resource of a route's path (every path of the route table has one). */
  resourceOf(path: string): Resource {
    const resource = this.resources.get(path);
    if (!resource) throw new Error(`no resource for ${path}: it is not a path of the route table`);
    return resource;
  }

  /**
   * `ANY` on every resource plus a root `{proxy+}`, to the fallback: API
   * Gateway prefers an explicit method over `ANY`, so routes still win, and a
   * wrong method on a known path reaches the fallback (405) instead of API
   * Gateway's 403. One API-wide permission instead of one per method: this
   * function is meant to be reachable from every path and method.
   */
  routeEverythingElseTo(fn: ServiceFunction): void {
    if (this.fallbackAttached) throw new Error('the fallback is attached once');
    this.fallbackAttached = true;
    const integration = new LambdaIntegration(fn.lambda, { scopePermissionToMethod: false });
    const resources = this.restApi.root.node
      .findAll()
      .filter((c): c is ResourceBase => c instanceof ResourceBase);
    for (const resource of [...resources, this.restApi.root.addResource('{proxy+}')]) {
      resource.addMethod('ANY', integration);
    }
  }
}

/**
 * Methods without an API Gateway authorizer, by design: an acknowledgement
 * for the stacks that hold methods (this one's `ANY`, the areas' routes).
 */
export function acknowledgeOpenMethods(scope: Construct): void {
  Validations.of(scope).acknowledge(
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
}
