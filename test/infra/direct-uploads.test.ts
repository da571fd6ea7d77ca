/**
 * Direct uploads (issue 16) in the synthesized stack: browsers may POST to
 * the uploads bucket from any website (the signed policy is the guard),
 * pending objects expire after a day, and each function reaches only the
 * prefix it works on: the uploads route signs for `pending/*` with
 * PutObject alone; submit reads and deletes `pending/*` and writes `forms/*`.
 */
import { describe, expect, it } from 'vitest';
import { PENDING_UPLOADS_PREFIX } from '#domain/direct-uploads.ts';
import { SUBMISSION_UPLOADS_PREFIX } from '#domain/uploads.ts';
import { propertiesOf, statementsOf, synthesize } from './synthesize.ts';

const built = synthesize();
const uploads = built.logicalId(built.stack.storage.uploads);
const bucket = propertiesOf(built.template.toJSON().Resources[uploads]);

/** ListBucket is granted on the bucket itself (uploads:list); every other S3 action on objects. */
const isObjectAction = (action: string) => action.startsWith('s3:') && action !== 's3:ListBucket';

/** S3 object grants of a function as `action → key patterns` (the part after the bucket ARN). */
function objectGrants(name: string): Record<string, string[]> {
  const grants: Record<string, string[]> = {};
  for (const statement of statementsOf(built, name)) {
    for (const action of [statement.Action].flat().filter(isObjectAction)) {
      for (const resource of [statement.Resource].flat()) {
        const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
        expect(join, `${name}: ${action} on ${JSON.stringify(resource)}`).toBeDefined();
        const [first, rest] = join![1] as [unknown, string];
        expect(first).toEqual({ 'Fn::GetAtt': [uploads, 'Arn'] });
        grants[action] = [...(grants[action] ?? []), rest].sort();
      }
    }
  }
  return grants;
}

describe('direct uploads in the stack', () => {
  it('the uploads bucket takes browser POSTs from any origin, and no other method', () => {
    expect(bucket.CorsConfiguration).toEqual({
      CorsRules: [
        { AllowedMethods: ['POST'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], MaxAge: 3000 },
      ],
    });
  });

  it('expires pending uploads after one day, and only those', () => {
    const rules = (bucket.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    const expiring = rules.filter((rule) => 'ExpirationInDays' in rule);
    expect(expiring).toEqual([
      {
        Id: 'ExpirePendingUploads',
        Prefix: PENDING_UPLOADS_PREFIX,
        ExpirationInDays: 1,
        Status: 'Enabled',
      },
    ]);
  });

  it('the uploads route may only PutObject on pending keys (what signing a POST needs)', () => {
    expect(objectGrants('createUploads')).toEqual({
      's3:PutObject': [`/${PENDING_UPLOADS_PREFIX}*`],
    });
  });

  it('submit reads and deletes pending keys and writes submission keys, nothing wider', () => {
    expect(objectGrants('submit')).toEqual({
      's3:GetObject': [`/${PENDING_UPLOADS_PREFIX}*`],
      's3:DeleteObject': [`/${PENDING_UPLOADS_PREFIX}*`, `/${SUBMISSION_UPLOADS_PREFIX}*`].sort(),
      's3:PutObject': [`/${SUBMISSION_UPLOADS_PREFIX}*`],
    });
  });

  it('no function reaches every object of the bucket', () => {
    const names = built.stack.allFunctions().map((fn) => fn.node.id);
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      for (const patterns of Object.values(objectGrants(name))) {
        expect(patterns, `${name} has an object grant on the whole bucket`).not.toContain('/*');
      }
    }
  });
});
