import type { Access } from '#access';
import type { Route } from '#routes';
import { routes } from '#routes';

/**
 * The real route table plus routes that use every access kind and streaming,
 * so grants and integrations the current table does not exercise yet are
 * still checked. Handlers point at existing modules: bundling is skipped, but
 * NodejsFunction insists the entry file exists.
 */
const probe = {
  area: 'forms',
  auth: 'apiKey',
  memoryMb: 512,
  timeoutSeconds: 10,
  streaming: false,
  handler: 'http/forms/get-form.ts',
  summary: 'test-only route',
} as const;

export const everyAccessRoutes: readonly Route[] = [
  ...routes,
  {
    ...probe,
    name: 'probeSubmit',
    method: 'POST',
    path: '/probe/s/{key}',
    auth: 'public',
    access: ['table:read', 'table:write', 'uploads:write', 'secrets:keyedHash'],
  },
  {
    ...probe,
    name: 'probeExport',
    method: 'GET',
    path: '/probe/export/{id}',
    streaming: true,
    timeoutSeconds: 300,
    access: ['table:read', 'uploads:read'],
  },
  {
    ...probe,
    name: 'probeUpdate',
    method: 'PATCH',
    path: '/probe/forms/{id}',
    access: ['table:read', 'table:write', 'schedules:manage'],
  },
  {
    ...probe,
    name: 'probeDelete',
    method: 'DELETE',
    path: '/probe/forms/{id}',
    access: ['table:write', 'uploads:delete'],
  },
  {
    ...probe,
    name: 'probeEnqueue',
    method: 'POST',
    path: '/probe/enqueue/{id}',
    access: ['table:read', 'queue:emails:send'],
  },
];

/**
 * Least privilege written down independently of lib/: the exact actions each
 * access kind may add to a function's role. A grant that widens fails here.
 */
export const EXPECTED_ACTIONS: Record<Access, readonly string[]> = {
  'table:read': [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
  ],
  'table:write': [
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:ConditionCheckItem',
  ],
  'rateLimits:count': ['dynamodb:UpdateItem'],
  'callers:record': [
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
  'email:send': ['ses:SendEmail'],
  'email:tenants': [
    'ses:SendEmail',
    'ses:CreateTenant',
    'ses:GetTenant',
    'ses:CreateTenantResourceAssociation',
    'ses:UpdateReputationEntityPolicy',
  ],
  'email:liftSuppressions': ['ses:DeleteSuppressedDestination'],
  'uploads:read': ['s3:GetObject'],
  'uploads:write': ['s3:PutObject'],
  'uploads:delete': ['s3:DeleteObject'],
  'uploads:list': ['s3:ListBucket'],
  'uploads:signPending': ['s3:PutObject'],
  'uploads:claimPending': ['s3:GetObject', 's3:DeleteObject'],
  'uploads:postTarget': [],
  'secrets:keyedHash': [],
  'secrets:googleServiceAccount': [],
  'secrets:googleServiceAccountEmail': [],
  'forms:update': ['dynamodb:UpdateItem'],
  'audit:record': ['dynamodb:PutItem'],
  'schedules:cancel': ['scheduler:DeleteSchedule'],
  'schedules:manage': [
    'scheduler:CreateSchedule',
    'scheduler:UpdateSchedule',
    'scheduler:DeleteSchedule',
    'iam:PassRole',
  ],
  'queue:webhooks:send': ['sqs:SendMessage'],
  'queue:emails:send': ['sqs:SendMessage'],
  'queue:sheets:send': ['sqs:SendMessage'],
  'queue:sheets:deadLetter': ['sqs:SendMessage'],
  'queue:webhooks:deadLetter': ['sqs:SendMessage'],
  'queue:emails:deadLetter': ['sqs:SendMessage'],
  'queue:signIns:send': ['sqs:SendMessage'],
  'queue:signIns:deadLetter': ['sqs:SendMessage'],
  'queue:emailEvents:send': ['sqs:SendMessage'],
  'queue:emailEvents:deadLetter': ['sqs:SendMessage'],
  'queue:formPurges:send': ['sqs:SendMessage'],
  'queue:formPurges:deadLetter': ['sqs:SendMessage'],
  'queue:spamPurges:send': ['sqs:SendMessage'],
  'queue:spamPurges:deadLetter': ['sqs:SendMessage'],
  'queue:pendingPurges:send': ['sqs:SendMessage'],
  'queue:pendingPurges:deadLetter': ['sqs:SendMessage'],
  'queue:retentionRuns:send': ['sqs:SendMessage'],
  'queue:retentionRuns:deadLetter': ['sqs:SendMessage'],
  'queue:replays:send': ['sqs:SendMessage'],
  'queue:replays:deadLetter': ['sqs:SendMessage'],
  'queue:scanResults:send': ['sqs:SendMessage'],
  'queue:scanResults:deadLetter': ['sqs:SendMessage'],
};

/** Every function may write its own log group, nothing more, whatever its access. */
export const BASELINE_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'] as const;
