import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The id cdk-nag gives a wildcard-resource finding (AwsSolutions-IAM5) for
 * `resource`, so an acknowledgement names exactly that one ARN pattern and a
 * new wildcard elsewhere still fails the check. cdk-nag flattens intrinsics:
 * Fn::Join pieces are joined, `Ref` becomes `<Id>`, `Fn::GetAtt` `<Id.Attr>`.
 */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(resource))}]`;
}

function flatten(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if ('Fn::Join' in node) {
      const [delimiter, parts] = node['Fn::Join'] as [string, unknown[]];
      return parts.map(flatten).join(delimiter);
    }
    if ('Ref' in node) return `<${flatten(node.Ref)}>`;
    if ('Fn::GetAtt' in node) {
      const [resource, attribute] = node['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(resource)}.${flatten(attribute)}>`;
    }
  }
  return JSON.stringify(value);
}
