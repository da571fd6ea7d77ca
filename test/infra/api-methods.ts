import type { Template } from 'aws-cdk-lib/assertions';
import { propertiesOf, resourcesOfType } from './synthesize.ts';

export interface DeployedMethod {
  path: string;
  httpMethod: string;
  /** Logical id of the Lambda function the proxy integration invokes. */
  functionId: string | undefined;
  integrationType: string;
  uri: string;
  responseTransferMode: string | undefined;
  timeoutMillis: number | undefined;
}

/**
 * Every method of the template with its full path, rebuilt from the
 * resource tree (PathPart + ParentId), and the function its integration
 * invokes.
 */
export function deployedMethods(template: Template): DeployedMethod[] {
  const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
  const pathCache = new Map<string, string>();
  const pathOf = (ref: unknown): string => {
    const id = (ref as { Ref?: string }).Ref;
    if (id === undefined) return ''; // Fn::GetAtt RootResourceId
    const cached = pathCache.get(id);
    if (cached !== undefined) return cached;
    const props = propertiesOf(resources[id]!);
    const path = `${pathOf(props.ParentId)}/${String(props.PathPart)}`;
    pathCache.set(id, path);
    return path;
  };

  return Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method')).map((method) => {
    const props = propertiesOf(method);
    const integration = props.Integration as Record<string, unknown>;
    const uri = JSON.stringify(integration.Uri);
    return {
      path: pathOf(props.ResourceId) || '/',
      httpMethod: String(props.HttpMethod),
      functionId: /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(uri)?.[1],
      integrationType: String(integration.Type),
      uri,
      responseTransferMode: integration.ResponseTransferMode as string | undefined,
      timeoutMillis: integration.TimeoutInMillis as number | undefined,
    };
  });
}
