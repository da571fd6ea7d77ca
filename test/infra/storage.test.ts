import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { INDEXES, STREAM_VIEW, TABLE_KEYS, TTL_ATTRIBUTE } from '#store/schema.ts';
import { propertiesOf, resourcesOfType, synthesize } from './synthesize.ts';

const { template, stack, logicalId } = synthesize();

function tableResource() {
  const tables = Object.values(resourcesOfType(template, 'AWS::DynamoDB::Table'));
  expect(
    tables,
    'the stack should hold exactly one DynamoDB table (single-table design)',
  ).toHaveLength(1);
  return tables[0]!;
}

describe('the single table', () => {
  it('is keyed by pk/sk strings and billed per request', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('has point-in-time recovery, the schema stream view and TTL on the schema attribute', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: STREAM_VIEW },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    });
  });

  it('has exactly the indexes of schema.ts, each with its keys and projection', () => {
    const built = (propertiesOf(tableResource()).GlobalSecondaryIndexes ?? []) as Array<{
      IndexName: string;
      KeySchema: Array<{ AttributeName: string; KeyType: string }>;
      Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
    }>;
    const actual = Object.fromEntries(
      built.map((index) => [
        index.IndexName,
        {
          partitionKey: index.KeySchema.find((k) => k.KeyType === 'HASH')?.AttributeName,
          sortKey: index.KeySchema.find((k) => k.KeyType === 'RANGE')?.AttributeName,
          projection: index.Projection.ProjectionType,
          include: index.Projection.NonKeyAttributes,
        },
      ]),
    );
    const expected = Object.fromEntries(
      Object.values(INDEXES).map((index) => [
        index.name,
        {
          partitionKey: index.partitionKey,
          sortKey: index.sortKey,
          projection: index.projection,
          include: 'include' in index ? [...index.include] : undefined,
        },
      ]),
    );
    expect(actual, 'GSIs on the table differ from INDEXES in lambdas/store/schema.ts').toEqual(
      expected,
    );
  });

  it('declares every key attribute as a string and nothing else', () => {
    const definitions = propertiesOf(tableResource()).AttributeDefinitions as Array<{
      AttributeName: string;
      AttributeType: string;
    }>;
    const names = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
    for (const index of Object.values(INDEXES)) {
      names.add(index.partitionKey);
      names.add(index.sortKey);
    }
    expect(
      Object.fromEntries(definitions.map((d) => [d.AttributeName, d.AttributeType])),
      'attribute definitions should be exactly the key attributes, all type S',
    ).toEqual(Object.fromEntries([...names].map((name) => [name, 'S'])));
  });

  it('outlives the stack and is deletion-protected by default', () => {
    const table = tableResource();
    expect(table.DeletionPolicy, 'table must be retained when the stack is deleted').toBe('Retain');
    expect(table.UpdateReplacePolicy, 'table must be retained on replacement').toBe('Retain');
    expect(
      propertiesOf(table).DeletionProtectionEnabled,
      'cdk.json default turns deletion protection on',
    ).toBe(true);
  });

  it('drops deletion protection when the context flag says so (as the CLI passes it, a string)', () => {
    const { template: unprotected } = synthesize({ context: { tableDeletionProtection: 'false' } });
    unprotected.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
  });
});

describe('the uploads bucket', () => {
  const uploads = logicalId(stack.storage.uploads);
  const accessLogs = logicalId(stack.storage.accessLogs);

  it('blocks all public access and encrypts with S3-managed keys', () => {
    const bucket = propertiesOf(template.toJSON().Resources[uploads]);
    expect(
      bucket.PublicAccessBlockConfiguration,
      'uploads must block every kind of public access',
    ).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.BucketEncryption, 'uploads must use SSE-S3').toEqual({
      ServerSideEncryptionConfiguration: [
        { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
      ],
    });
  });

  it('aborts incomplete multipart uploads after one day', () => {
    const rules = (
      propertiesOf(template.toJSON().Resources[uploads]).LifecycleConfiguration as {
        Rules: unknown[];
      }
    ).Rules;
    expect(
      rules,
      'a lifecycle rule should abort incomplete multipart uploads after 1 day',
    ).toContainEqual(
      expect.objectContaining({
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        Status: 'Enabled',
      }),
    );
  });

  it('writes server access logs to the separate logs bucket', () => {
    expect(propertiesOf(template.toJSON().Resources[uploads]).LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: accessLogs },
      LogFilePrefix: 'uploads/',
    });
  });

  it('is retained with the stack deleted: it holds customer files', () => {
    expect(template.toJSON().Resources[uploads].DeletionPolicy).toBe('Retain');
  });

  it.each([
    ['uploads', uploads],
    ['access logs', accessLogs],
  ])('the %s bucket policy denies every request made without TLS', (_name, bucketId) => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('the access logs bucket is private, encrypted and expires logs after the configured days', () => {
    const bucket = propertiesOf(template.toJSON().Resources[accessLogs]);
    expect(bucket.PublicAccessBlockConfiguration).toMatchObject({
      BlockPublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.BucketEncryption).toBeDefined();
    expect((bucket.LifecycleConfiguration as { Rules: unknown[] }).Rules).toContainEqual(
      expect.objectContaining({ ExpirationInDays: cdkJsonNumber('accessLogRetentionDays') }),
    );
  });
});

function cdkJsonNumber(key: string): number {
  return Number(stack.node.tryGetContext(key));
}
