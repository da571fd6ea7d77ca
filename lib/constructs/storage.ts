import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
} from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { PENDING_UPLOAD_SECONDS, PENDING_UPLOADS_PREFIX } from '#domain/direct-uploads.ts';
import { SUBMISSION_UPLOADS_PREFIX } from '#domain/uploads.ts';
import { INDEXES, STREAM_VIEW, TABLE_KEYS, TTL_ATTRIBUTE } from '#store/schema.ts';
import { acknowledgeWildcardResource } from './nag-finding.ts';
import type { ServiceFunction } from './service-function.ts';

export interface StorageProps {
  tableDeletionProtection: boolean;
  accessLogRetentionDays: number;
}

export type UploadAction = 'read' | 'write' | 'delete';

const UPLOAD_ACTIONS: Record<UploadAction, string> = {
  read: 's3:GetObject',
  write: 's3:PutObject',
  delete: 's3:DeleteObject',
};

/** What may be done with pending direct uploads: sign a POST for one, or check and move one. */
export type PendingUploadAction = 'sign' | 'claim';

const PENDING_UPLOAD_ACTIONS: Record<PendingUploadAction, string[]> = {
  // A presigned POST carries the signer's rights: PutObject on pending keys, nothing else.
  sign: ['s3:PutObject'],
  // HeadObject and ranged GETs are s3:GetObject; CopyObject reads its source with it.
  claim: ['s3:GetObject', 's3:DeleteObject'],
};

/**
 * The single table (declared in lambdas/store/schema.ts, built here) and the
 * uploads bucket. Both hold customer data, so both outlive the stack
 * (RETAIN). Access is granted per function through the `grant…` methods,
 * which also hand the function the variable that names the resource.
 */
export class Storage extends Construct {
  readonly table: Table;
  readonly uploads: Bucket;
  readonly accessLogs: Bucket;
  private readonly uploadsAcknowledged = new WeakMap<ServiceFunction, Set<string>>();

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: StreamViewType[STREAM_VIEW],
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: props.tableDeletionProtection,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(INDEXES)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType[index.projection],
        nonKeyAttributes: 'include' in index ? [...index.include] : undefined,
      });
    }

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // Server access log delivery supports SSE-S3 only.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(props.accessLogRetentionDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.uploads = new Bucket(this, 'Uploads', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // No versioning: deleting a submission must delete its files for good.
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Direct uploads never named by a post (or whose post was refused) go after a day.
        {
          id: 'ExpirePendingUploads',
          prefix: PENDING_UPLOADS_PREFIX,
          expiration: Duration.seconds(PENDING_UPLOAD_SECONDS),
        },
      ],
      // Browsers POST direct uploads from any website; the signed policy is the guard.
      cors: [
        {
          allowedMethods: [HttpMethods.POST],
          allowedOrigins: ['*'],
          allowedHeaders: ['*'],
          maxAge: 3000,
        },
      ],
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'uploads/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Get, batch get, query (table and every index); nothing else, no Scan. */
  grantTableRead(fn: ServiceFunction): void {
    fn.addEnvironment('TABLE_NAME', this.table.tableName);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
          'dynamodb:ConditionCheckItem',
        ],
        // Each index by name rather than `index/*`: no wildcard to justify.
        resources: [
          this.table.tableArn,
          ...Object.values(INDEXES).map((index) => `${this.table.tableArn}/index/${index.name}`),
        ],
      }),
    );
  }

  /** Put, update, delete, batch write; also what TransactWriteItems checks. */
  grantTableWrite(fn: ServiceFunction): void {
    fn.addEnvironment('TABLE_NAME', this.table.tableName);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:BatchWriteItem',
          'dynamodb:ConditionCheckItem',
        ],
        resources: [this.table.tableArn],
      }),
    );
  }

  /**
   * UpdateItem on rate-limit windows only: the LeadingKeys condition limits
   * it to items whose partition key starts with `RATE#`, so a function that
   * only counts requests cannot change a form, a key or a team.
   */
  grantRateCounting(fn: ServiceFunction): void {
    this.grantOnLeadingKeys(fn, ['dynamodb:UpdateItem'], ['RATE#*']);
  }

  /**
   * What authenticating a caller writes, on any route (one that only reads
   * included): a key's day of use and its listing (a transaction), a
   * session's last use, an orphan key's revocation and its audit event, an
   * old team's owner membership. Items of the key, team and membership
   * partitions only: no form, submission or rate window.
   */
  grantCallerRecords(fn: ServiceFunction): void {
    this.grantOnLeadingKeys(
      fn,
      [
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
      ],
      ['APIKEY#*', 'TEAM#*', 'MEMBERSHIP#*'],
    );
  }

  /**
   * UpdateItem on form partitions only (`FORM#` leading keys): what the
   * form closer calls, a conditional update of the form item, and nothing
   * that could read, delete or touch a key, a team or a rate window.
   */
  grantFormUpdates(fn: ServiceFunction): void {
    this.grantOnLeadingKeys(fn, ['dynamodb:UpdateItem'], ['FORM#*']);
  }

  /**
   * PutItem on team partitions only (`TEAM#` leading keys): an audit event
   * recorded by a worker, which needs no other write to the team.
   */
  grantAuditRecords(fn: ServiceFunction): void {
    this.grantOnLeadingKeys(fn, ['dynamodb:PutItem'], ['TEAM#*']);
  }

  /** `actions` on the table's items whose partition key matches one of `prefixes` only. */
  private grantOnLeadingKeys(fn: ServiceFunction, actions: string[], prefixes: string[]): void {
    fn.addEnvironment('TABLE_NAME', this.table.tableName);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions,
        resources: [this.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes } },
      }),
    );
  }

  /** The uploads bucket's name in the environment, and no permission on it. */
  nameUploadsBucket(fn: ServiceFunction): void {
    fn.addEnvironment('UPLOADS_BUCKET', this.uploads.bucketName);
  }

  /** ListBucket on the uploads bucket: finding every object under a form's prefix. */
  grantUploadListing(fn: ServiceFunction): void {
    fn.addEnvironment('UPLOADS_BUCKET', this.uploads.bucketName);
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.uploads.bucketArn] }),
    );
  }

  /** Objects of submissions only (`forms/…`): never the pending direct uploads. */
  grantUploads(fn: ServiceFunction, action: UploadAction): void {
    this.grantObjects(fn, [UPLOAD_ACTIONS[action]], `${SUBMISSION_UPLOADS_PREFIX}*`);
  }

  /** Pending direct uploads only (`pending/…`): signing POSTs for them, or checking and moving them. */
  grantPendingUploads(fn: ServiceFunction, action: PendingUploadAction): void {
    this.grantObjects(fn, PENDING_UPLOAD_ACTIONS[action], `${PENDING_UPLOADS_PREFIX}*`);
  }

  private grantObjects(fn: ServiceFunction, actions: string[], keys: string): void {
    fn.addEnvironment('UPLOADS_BUCKET', this.uploads.bucketName);
    const resource = this.uploads.arnForObjects(keys);
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [resource] }));
    const acknowledged = this.uploadsAcknowledged.get(fn) ?? new Set<string>();
    this.uploadsAcknowledged.set(fn, acknowledged);
    if (acknowledged.has(keys)) return;
    acknowledged.add(keys);
    acknowledgeWildcardResource(
      fn.role,
      resource,
      `Object keys under ${keys.slice(0, -1)} are minted per submission or upload at run time; the grant is limited to the listed object actions on that prefix of this one bucket.`,
    );
  }
}
