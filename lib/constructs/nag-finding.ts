import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges cdk-nag's wildcard-resource finding (AwsSolutions-IAM5) for
 * exactly one ARN pattern on `scope` (a function's role), so a new wildcard
 * elsewhere still fails the check. The finding's id spells the ARN as the
 * template of `scope`'s stack does, and a resource of another stack appears
 * there as a parameter of that nested stack only once the app is prepared,
 * after every construct exists: the id is therefore made when the tree is
 * validated (after preparation, before cdk-nag runs), not now.
 */
export function acknowledgeWildcardResource(
  scope: IConstruct,
  resource: string,
  reason: string,
): void {
  scope.node.addValidation({
    validate: () => {
      Validations.of(scope).acknowledge({ id: wildcardResourceFinding(scope, resource), reason });
      return [];
    },
  });
}

/**
 * The id cdk-nag gives a wildcard-resource finding for `resource` in the
 * template of `scope`'s stack. cdk-nag flattens intrinsics: Fn::Join pieces
 * are joined, `Ref` becomes `<Id>`, `Fn::GetAtt` `<Id.Attr>`.
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
