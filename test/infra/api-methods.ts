import { propertiesOf, resourcesOfType, type Synthesized } from './synthesize.ts';

export interface DeployedMethod {
  path: string;
  httpMethod: string;
  /** Logical id of the Lambda function the proxy integration invokes. */
  functionId: string | undefined;
  integrationType: string;
  uri: string;
  responseTransferMode: string | undefined;
  timeoutMillis: number | undefined;
  /** Logical id of the method (in the template of its stack). */
  id: string;
  /** The stack that holds the method. */
  stack: string;
}

/**
 * Every method of the deployment, in whichever stack it lives (the API's
 * `ANY`, the areas' routes), with its full path rebuilt from the API's
 * resource tree (PathPart + ParentId) and the function its integration
 * invokes.
 */
export function deployedMethods(built: Synthesized): DeployedMethod[] {
  const apiPath = built.stack.api.node.path;
  const resources = resourcesOfType(built.templates.get(apiPath)!, 'AWS::ApiGateway::Resource');
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

  return [...built.templates].flatMap(([stack, template]) =>
    Object.entries(resourcesOfType(template, 'AWS::ApiGateway::Method')).map(([id, method]) => {
      const props = propertiesOf(method);
      // An area's method names its resource by a parameter: followed to the API stack's own id.
      const resource = built.resolved(stack, props.ResourceId);
      const integration = props.Integration as Record<string, unknown>;
      const uri = JSON.stringify(integration.Uri);
      return {
        path: pathOf(resource) || '/',
        httpMethod: String(props.HttpMethod),
        functionId: /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(uri)?.[1],
        integrationType: String(integration.Type),
        uri,
        responseTransferMode: integration.ResponseTransferMode as string | undefined,
        timeoutMillis: integration.TimeoutInMillis as number | undefined,
        id,
        stack,
      };
    }),
  );
}
