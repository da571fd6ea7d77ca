import type { Access } from './access.ts';

/**
 * THE route table: every HTTP route of the service, once. The CDK stack
 * builds one function per entry (with exactly the grants in `access`), the
 * local gateway serves the same entries, and the OpenAPI document and the
 * docs page are generated from it. A route that is not built is not listed
 * here.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A method a path answers: a route's, or HEAD where answersHead says so. */
export type AllowedMethod = Method | 'HEAD';

export interface Route {
  /** Unique, stable camelCase name: the function's construct id. */
  name: string;
  method: Method;
  /** API Gateway path template, e.g. `/v1/forms/{id}`. */
  path: string;
  /** Handler module relative to `lambdas/`, exporting `handler`. */
  handler: string;
  /**
   * `public`: no caller (whether any website may read its answers is its
   * contract's `cors`); `apiKey`: the management
   * API, a Bearer API key or a dashboard session (callerAuth); `anonymous`:
   * no caller yet (signing in), same origin only.
   */
  auth: 'public' | 'apiKey' | 'anonymous';
  memoryMb: number;
  timeoutSeconds: number;
  /** Streams its response (REST API `STREAM` transfer mode). */
  streaming: boolean;
  access: readonly Access[];
  summary: string;
  /**
   * The nested stack its function, method and invoke permission live in
   * (lib/stacks/route-area.ts; docs/contributing.md#how-to-add): a new route
   * takes the area of the routes beside it.
   */
  area: RouteArea;
  /**
   * Routes that share one function (`http/groups/<group>.generated.ts`
   * loads each route's handler on its first request), so they share warm
   * containers instead of each starting cold. A group's routes hold the same
   * grants (`access`, declared once in the group's defaults below), memory,
   * timeout and streaming: a route that needs one grant more is a function
   * of its own, never a wider group (routeFunctions refuses a mixed group).
   * Without a group, a route is its own function.
   */
  group?: string;
}

/**
 * The stacks the routes live in, by what they serve: what a visitor's
 * browser and the dashboard load (`public`), forms and their submissions
 * (`forms`), where submissions go (`delivery`), people, teams and privacy
 * (`accounts`).
 */
export const ROUTE_AREAS = ['public', 'forms', 'delivery', 'accounts'] as const;
export type RouteArea = (typeof ROUTE_AREAS)[number];

/**
 * Every management route counts its caller's requests against the per-key
 * limit, and records what authenticating its caller writes (a key's day of
 * use, a session's last use), also on a route that otherwise only reads.
 */
const MANAGEMENT_ACCESS = [
  'rateLimits:count',
  'callers:record',
] as const satisfies readonly Access[];
/** What a management route that only reads holds. */
const MANAGEMENT_READS = [...MANAGEMENT_ACCESS, 'table:read'] as const satisfies readonly Access[];
/** What a management route that changes the table holds. */
const MANAGEMENT_WRITES = [...MANAGEMENT_READS, 'table:write'] as const satisfies readonly Access[];

const managementDefaults = {
  auth: 'apiKey',
  memoryMb: 512,
  timeoutSeconds: 10,
  streaming: false,
} as const;

/**
 * Forms and their submissions. Reads share one function, `formReads`, and
 * the short writes of the table one more, `formWrites`; a route that needs a
 * grant more (the close schedule, the uploads bucket) or a longer timeout
 * (a whole folder) is its own.
 */
const formsArea = { ...managementDefaults, area: 'forms' } as const;
const formReads = { ...formsArea, group: 'formReads', access: MANAGEMENT_READS } as const;
const formWrites = { ...formsArea, group: 'formWrites', access: MANAGEMENT_WRITES } as const;

/** A form's webhook, its integrations and their delivery logs: `deliveryReads`, `deliveryWrites`. */
const deliveryArea = { ...managementDefaults, area: 'delivery' } as const;
const deliveryReads = {
  ...deliveryArea,
  group: 'deliveryReads',
  access: MANAGEMENT_READS,
} as const;
const deliveryWrites = {
  ...deliveryArea,
  group: 'deliveryWrites',
  access: MANAGEMENT_WRITES,
} as const;

/**
 * People, teams and privacy: sign-in, sessions, the team, its members and
 * keys, its suppression list, a person's submissions by email address.
 * Only the erase, the export and the lift hold the keyed-hash secret (the
 * email index is keyed by a hash: docs/privacy.md#how-a-person-is-found),
 * each a function of its own.
 */
const accountsArea = { ...managementDefaults, area: 'accounts' } as const;
const accountDefaults = { ...accountsArea, memoryMb: 256 } as const;
const accountReads = {
  ...accountDefaults,
  group: 'accountReads',
  access: MANAGEMENT_READS,
} as const;
const accountWrites = {
  ...accountDefaults,
  group: 'accountWrites',
  access: MANAGEMENT_WRITES,
} as const;
/** Inviting a member sends the invitation's email through the sign-in queue. */
const invitations = {
  ...accountDefaults,
  group: 'invitations',
  access: [...MANAGEMENT_WRITES, 'queue:signIns:send'],
} as const;

/** Signing in: JSON, no caller yet; counts requests against per-address and per-IP limits. */
const signInDefaults = { ...accountDefaults, auth: 'anonymous' } as const;

/** What a visitor's browser and the dashboard load, and the submit endpoint. */
const publicArea = { area: 'public' } as const;

/** The public documents and pages: small answers, no AWS call unless a route names one. */
const publicPageDefaults = {
  ...publicArea,
  auth: 'public',
  memoryMb: 256,
  timeoutSeconds: 5,
  streaming: false,
  access: [],
} as const;

/** The hosted form page, its JSON and the embed script: what a visitor's browser loads before posting. */
const pageDefaults = { ...publicPageDefaults, timeoutSeconds: 10 } as const;

/** The dashboard's page and files: one function, `app`. */
const appDefaults = { ...publicPageDefaults, group: 'app' } as const;

/** The API's own documentation: one function, `docs`. */
const docsDefaults = { ...publicPageDefaults, group: 'docs' } as const;

export const routes: readonly Route[] = [
  {
    ...publicArea,
    name: 'submit',
    method: 'POST',
    path: '/s/{key}',
    handler: 'http/submit/submit.ts',
    auth: 'public',
    // Parsing multipart and putting files to S3 is CPU-bound: memory buys CPU.
    memoryMb: 1024,
    // The captcha check may take 5 s and uploads a few more.
    timeoutSeconds: 20,
    streaming: false,
    access: [
      'table:read',
      'table:write',
      'rateLimits:count',
      'uploads:write',
      'uploads:delete',
      'uploads:claimPending',
      // A team that keeps keyed hashes of visitor addresses (docs/people.md#visitor-addresses).
      'secrets:keyedHash',
    ],
    summary:
      'The public submit endpoint: stores a post (urlencoded, multipart with files, or JSON) after its checks, in a fixed order; the first that fails decides the answer.',
  },
  {
    ...formReads,
    name: 'listForms',
    method: 'GET',
    path: '/v1/forms',
    handler: 'http/forms/list-forms.ts',
    summary: "Lists the team's forms, newest first, in the short shape.",
  },
  {
    ...formWrites,
    name: 'createForm',
    method: 'POST',
    path: '/v1/forms',
    handler: 'http/forms/create-form.ts',
    summary: 'Creates a form with every setting at its default; 402 past the Free form limit.',
  },
  {
    ...formReads,
    name: 'getForm',
    method: 'GET',
    path: '/v1/forms/{id}',
    handler: 'http/forms/get-form.ts',
    summary: 'Returns the full form object.',
  },
  {
    ...formReads,
    name: 'getFormSummary',
    method: 'GET',
    path: '/v1/forms/{id}/summary',
    handler: 'http/forms/get-summary.ts',
    summary:
      "The form's analytics of a range of days in a time zone: views, stored, spam, dropped, devices, countries, referrers, fields, its type's block and the funnel.",
  },
  {
    ...formsArea,
    name: 'updateForm',
    method: 'PATCH',
    path: '/v1/forms/{id}',
    handler: 'http/forms/update-form.ts',
    access: [...MANAGEMENT_WRITES, 'schedules:manage'],
    summary:
      'Changes any subset of settings; Pro settings on a Free team answer 402 and nothing is saved.',
  },
  {
    ...formsArea,
    name: 'deleteForm',
    method: 'DELETE',
    path: '/v1/forms/{id}',
    handler: 'http/forms/delete-form.ts',
    access: [...MANAGEMENT_WRITES, 'schedules:cancel'],
    summary:
      'Deletes the form, its submissions, uploads, schedule and webhook; the endpoint stops at once.',
  },
  {
    ...formWrites,
    name: 'duplicateForm',
    method: 'POST',
    path: '/v1/forms/{id}/duplicate',
    handler: 'http/forms/duplicate-form.ts',
    summary:
      'Copies a form (settings, fields, design) into a new open form with a new key; counts toward the Free limit.',
  },
  {
    ...formWrites,
    name: 'rotateFormKey',
    method: 'POST',
    path: '/v1/forms/{id}/rotate-key',
    handler: 'http/forms/rotate-form-key.ts',
    summary:
      'Gives the form a new public key and endpoint; the old endpoint stops accepting at once.',
  },
  {
    ...formWrites,
    name: 'sendTestSubmission',
    method: 'POST',
    path: '/v1/forms/{id}/test-submissions',
    handler: 'http/forms/send-test-submission.ts',
    summary:
      'Stores a sample submission marked isTest; it counts toward neither the allowance nor submissionCount.',
  },
  {
    ...formsArea,
    name: 'listSubmissions',
    method: 'GET',
    path: '/v1/forms/{id}/submissions',
    handler: 'http/submissions/list-submissions.ts',
    access: MANAGEMENT_READS,
    // A deep page or `around` counts keys a megabyte per Query; give it API Gateway's 29 s.
    timeoutSeconds: 29,
    summary:
      'One page of a folder (all, unread, starred, spam), newest first, with exact totals; around finds the page holding a submission.',
  },
  {
    ...formReads,
    name: 'searchSubmissions',
    method: 'GET',
    path: '/v1/forms/{id}/submissions/search',
    handler: 'http/submissions/search-submissions.ts',
    summary:
      'Finds submissions whose answers hold every word (case and accents aside), 200 read a call, newest first, with a cursor.',
  },
  {
    ...formReads,
    name: 'getSubmission',
    method: 'GET',
    path: '/v1/forms/{id}/submissions/{submissionId}',
    handler: 'http/submissions/get-submission.ts',
    summary: 'Returns one submission; reading it does not mark it read.',
  },
  {
    ...formsArea,
    name: 'updateSubmissions',
    method: 'PATCH',
    path: '/v1/forms/{id}/submissions',
    handler: 'http/submissions/update-submissions.ts',
    access: MANAGEMENT_WRITES,
    // Thousands of submissions in one request: up to API Gateway's 29 s, then 503 incomplete.
    timeoutSeconds: 29,
    summary:
      'Sets read, starred or isSpam on a list of ids or on a folder as of a moment; counts what changed.',
  },
  {
    ...formsArea,
    name: 'deleteSubmissions',
    method: 'DELETE',
    path: '/v1/forms/{id}/submissions',
    handler: 'http/submissions/delete-submissions.ts',
    access: [...MANAGEMENT_WRITES, 'uploads:delete'],
    timeoutSeconds: 29,
    summary:
      'Deletes a list of ids or a folder as of a moment, with their files; they stay counted in the month.',
  },
  {
    ...formsArea,
    name: 'getSubmissionFile',
    method: 'GET',
    path: '/v1/forms/{id}/submissions/{submissionId}/files/{index}',
    handler: 'http/submissions/get-submission-file.ts',
    access: [...MANAGEMENT_READS, 'uploads:read'],
    summary:
      'A download link for one uploaded file, valid 15 minutes, that saves it as an attachment.',
  },
  {
    ...deliveryReads,
    name: 'getWebhook',
    method: 'GET',
    path: '/v1/forms/{id}/webhook',
    handler: 'http/webhooks/get-webhook.ts',
    summary: "Shows the form's webhook: URL, state and signing secret.",
  },
  {
    ...deliveryWrites,
    name: 'putWebhook',
    method: 'PUT',
    path: '/v1/forms/{id}/webhook',
    handler: 'http/webhooks/put-webhook.ts',
    summary:
      'Connects a webhook (Pro; issues a whsec_ secret) or changes its URL (keeps the secret).',
  },
  {
    ...deliveryWrites,
    name: 'rotateWebhookSecret',
    method: 'POST',
    path: '/v1/forms/{id}/webhook/rotate-secret',
    handler: 'http/webhooks/rotate-webhook-secret.ts',
    summary: 'Issues a new signing secret; deliveries use it at once.',
  },
  {
    ...deliveryWrites,
    name: 'deleteWebhook',
    method: 'DELETE',
    path: '/v1/forms/{id}/webhook',
    handler: 'http/webhooks/delete-webhook.ts',
    summary: 'Disconnects the webhook and deletes its secret.',
  },
  {
    ...deliveryReads,
    name: 'listWebhookDeliveries',
    method: 'GET',
    path: '/v1/forms/{id}/webhook/deliveries',
    handler: 'http/webhooks/list-deliveries.ts',
    summary:
      "Webhook deliveries newest first, with every attempt; filter by status, page with next, or ask for one submission's delivery.",
  },
  {
    ...deliveryArea,
    name: 'retryWebhookDelivery',
    method: 'POST',
    path: '/v1/forms/{id}/webhook/deliveries/{deliveryId}/retry',
    handler: 'http/webhooks/retry-delivery.ts',
    access: [...MANAGEMENT_WRITES, 'queue:webhooks:send'],
    summary: 'Sends a failed delivery again with the same webhook-id and a fresh retry schedule.',
  },
  {
    ...deliveryArea,
    name: 'getIntegrations',
    method: 'GET',
    path: '/v1/forms/{id}/integrations',
    handler: 'http/integrations/get-integrations.ts',
    access: [...MANAGEMENT_READS, 'secrets:googleServiceAccountEmail'],
    summary:
      "The form's webhook, Sheets, Slack and Discord: each null or its status, last error and settings (chat URLs cut).",
  },
  {
    // A function of its own: it alone of the management routes holds the Google key,
    // reading a spreadsheet with it before it is saved: a token and spreadsheets.get, 10 s each at
    // most (the receiverTimeoutMs setting), so 25 s, under the gateway's 29, answers Google's
    // slowness as 503 busy rather than the function timing out.
    ...deliveryArea,
    timeoutSeconds: 25,
    name: 'putIntegration',
    method: 'PUT',
    path: '/v1/forms/{id}/integrations/{kind}',
    handler: 'http/integrations/put-integration.ts',
    access: [...MANAGEMENT_WRITES, 'secrets:googleServiceAccount'],
    summary:
      'Connects Google Sheets by a shared spreadsheet, or Slack or Discord by an incoming-webhook URL (Pro).',
  },
  {
    ...deliveryWrites,
    name: 'deleteIntegration',
    method: 'DELETE',
    path: '/v1/forms/{id}/integrations/{kind}',
    handler: 'http/integrations/delete-integration.ts',
    summary: 'Disconnects an integration; its queued messages end cancelled.',
  },
  {
    ...deliveryReads,
    name: 'listIntegrationDeliveries',
    method: 'GET',
    path: '/v1/forms/{id}/integrations/{kind}/deliveries',
    handler: 'http/integrations/list-integration-deliveries.ts',
    summary:
      "An integration's deliveries newest first, with every attempt; as the webhook's delivery log.",
  },
  {
    ...deliveryArea,
    name: 'retryIntegrationDelivery',
    method: 'POST',
    path: '/v1/forms/{id}/integrations/{kind}/deliveries/{deliveryId}/retry',
    handler: 'http/integrations/retry-integration-delivery.ts',
    access: [...MANAGEMENT_WRITES, 'queue:webhooks:send', 'queue:sheets:send'],
    summary: "Sends an integration's failed delivery again with a fresh retry schedule.",
  },
  {
    ...formsArea,
    name: 'exportSubmissionsCsv',
    method: 'GET',
    path: '/v1/forms/{id}/export.csv',
    handler: 'http/submissions/export-csv.ts',
    // Formatting rows is CPU-bound, and memory buys CPU.
    memoryMb: 1024,
    // Two passes over a large folder; API Gateway streams for up to 15 minutes.
    timeoutSeconds: 300,
    streaming: true,
    access: MANAGEMENT_READS,
    summary:
      'Streams the submissions of a filter as CSV, newest first (UTF-8 with BOM, formula cells neutralized).',
  },
  {
    ...accountsArea,
    name: 'erasePersonSubmissions',
    method: 'POST',
    path: '/v1/privacy/erasures',
    handler: 'http/privacy/erase-by-email.ts',
    // A person's submissions across every form of the team, with their files.
    timeoutSeconds: 29,
    access: [...MANAGEMENT_WRITES, 'uploads:delete', 'secrets:keyedHash'],
    summary:
      'Deletes every submission of the team that holds an email address, with its files and delivery records; answers how many, by form (owners only).',
  },
  {
    ...accountsArea,
    name: 'exportPersonSubmissions',
    method: 'GET',
    path: '/v1/privacy/submissions',
    handler: 'http/privacy/export-by-email.ts',
    // Streamed: no 6 MB cap on a person's document, and reads at a client's pace for up to 5 minutes (docs/privacy.md#export-by-email).
    timeoutSeconds: 300,
    streaming: true,
    // table:write for its audit event only.
    access: [...MANAGEMENT_WRITES, 'secrets:keyedHash'],
    summary:
      'Streams every submission of the team that holds an email address, as one JSON document (owners only).',
  },
  {
    ...signInDefaults,
    name: 'signIn',
    method: 'POST',
    path: '/v1/auth/sign-in',
    handler: 'http/auth/sign-in.ts',
    access: ['rateLimits:count', 'queue:signIns:send'],
    summary:
      'Emails a one-time sign-in link and 6-digit code to a member; answers the same for any address.',
  },
  {
    ...signInDefaults,
    name: 'verifySignIn',
    method: 'POST',
    path: '/v1/auth/verify',
    handler: 'http/auth/verify.ts',
    access: ['rateLimits:count', 'table:read', 'table:write', 'queue:signIns:send'],
    summary: 'Uses a sign-in link token or code once and starts a session (cookie).',
  },
  {
    ...accountWrites,
    name: 'signOut',
    method: 'POST',
    path: '/v1/auth/sign-out',
    handler: 'http/auth/sign-out.ts',
    summary: 'Ends this session at once and clears its cookie.',
  },
  {
    ...accountReads,
    name: 'getSession',
    method: 'GET',
    path: '/v1/auth/session',
    handler: 'http/auth/get-session.ts',
    summary: 'Who is asking: the member, the team and role, and the other teams of the address.',
  },
  {
    ...accountWrites,
    name: 'switchTeam',
    method: 'POST',
    path: '/v1/auth/session/team',
    handler: 'http/auth/switch-team.ts',
    summary: 'Moves the signed-in person to another of their teams: a new session there.',
  },
  {
    ...accountReads,
    name: 'listSessions',
    method: 'GET',
    path: '/v1/auth/sessions',
    handler: 'http/auth/list-sessions.ts',
    summary: "The signed-in member's sessions, this one marked current.",
  },
  {
    ...accountWrites,
    name: 'endOtherSessions',
    method: 'DELETE',
    path: '/v1/auth/sessions',
    handler: 'http/auth/end-other-sessions.ts',
    summary: 'Signs the member out everywhere but here.',
  },
  {
    ...accountReads,
    name: 'getTeam',
    method: 'GET',
    path: '/v1/team',
    handler: 'http/team/get-team.ts',
    summary: "The team: plan, this month's usage and allowance, member and form counts.",
  },
  {
    ...accountWrites,
    name: 'updateTeam',
    method: 'PATCH',
    path: '/v1/team',
    handler: 'http/team/update-team.ts',
    summary:
      "Changes the team's settings: what submissions keep of a visitor's address (owners only).",
  },
  {
    // Beside the privacy routes: the audit event keeps the address's keyed hash.
    ...accountReads,
    name: 'listSuppressions',
    method: 'GET',
    path: '/v1/team/suppressions',
    handler: 'http/privacy/list-suppressions.ts',
    summary:
      'The addresses the team’s forms no longer email: permanent bounces and complaints (owners only).',
  },
  {
    // A function of its own: it alone may delete SES's suppression entries. Its SES client tries
    // twice, 3 s each (aws/email-suppressions.ts): 10 s is enough.
    ...accountsArea,
    name: 'liftSuppression',
    method: 'DELETE',
    path: '/v1/team/suppressions/{email}',
    handler: 'http/privacy/lift-suppression.ts',
    // SES's own entry for the address goes too, from the team's tenant list.
    access: [...MANAGEMENT_WRITES, 'secrets:keyedHash', 'email:liftSuppressions'],
    summary:
      'Takes an address off the suppression list: the team’s forms email it again (owners only).',
  },
  {
    ...accountReads,
    name: 'listMembers',
    method: 'GET',
    path: '/v1/team/members',
    handler: 'http/team/list-members.ts',
    summary: "The team's members (owners only).",
  },
  {
    ...invitations,
    name: 'inviteMember',
    method: 'POST',
    path: '/v1/team/members',
    handler: 'http/team/invite-member.ts',
    summary: 'Adds a member and emails them a sign-in link (owners only).',
  },
  {
    ...invitations,
    name: 'resendInvitation',
    method: 'POST',
    path: '/v1/team/members/{userId}/invitation',
    handler: 'http/team/resend-invitation.ts',
    summary: 'Emails a member who has never signed in their invitation again (owners only).',
  },
  {
    ...accountWrites,
    name: 'updateMember',
    method: 'PATCH',
    path: '/v1/team/members/{userId}',
    handler: 'http/team/update-member.ts',
    summary: "Changes a member's role or name; the team keeps an owner (owners only).",
  },
  {
    ...accountWrites,
    name: 'removeMember',
    method: 'DELETE',
    path: '/v1/team/members/{userId}',
    handler: 'http/team/remove-member.ts',
    summary: 'Removes a member and ends their sessions at once; not the last owner (owners only).',
  },
  {
    ...accountReads,
    name: 'listApiKeys',
    method: 'GET',
    path: '/v1/team/api-keys',
    handler: 'http/team/list-api-keys.ts',
    summary:
      "The team's API keys: name, creator, created, last used; never the secret (owners only).",
  },
  {
    ...accountWrites,
    name: 'createApiKey',
    method: 'POST',
    path: '/v1/team/api-keys',
    handler: 'http/team/create-api-key.ts',
    summary: 'Creates an API key and shows it this once (owners only).',
  },
  {
    ...accountWrites,
    name: 'revokeApiKey',
    method: 'DELETE',
    path: '/v1/team/api-keys/{keyId}',
    handler: 'http/team/revoke-api-key.ts',
    summary: 'Revokes an API key at once (owners only).',
  },
  {
    ...accountReads,
    name: 'listAuditEvents',
    method: 'GET',
    path: '/v1/team/audit',
    handler: 'http/team/list-audit.ts',
    summary: "The team's audit trail, newest first, kept a year (owners only).",
  },
  {
    ...publicArea,
    name: 'createUploads',
    method: 'POST',
    path: '/s/{key}/uploads',
    handler: 'http/submit/create-uploads.ts',
    auth: 'public',
    memoryMb: 512,
    timeoutSeconds: 10,
    streaming: false,
    // Signing needs only PutObject on pending keys; reads the form and counts the rate windows.
    access: ['table:read', 'rateLimits:count', 'uploads:signPending'],
    summary:
      'Presigned S3 POSTs (15 minutes, up to the form’s uploadLimitMb) for files posted straight to storage, then named in `_uploads`.',
  },
  {
    ...appDefaults,
    name: 'getAppShell',
    method: 'GET',
    path: '/app',
    handler: 'http/app/get-app-shell.ts',
    summary: 'The dashboard (HTML): the page of every /app path; it signs in and calls /v1.',
  },
  {
    ...appDefaults,
    name: 'getAppPage',
    method: 'GET',
    path: '/app/{path+}',
    handler: 'http/app/get-app-shell.ts',
    summary: 'The dashboard at one of its paths (the same page; the script shows the screen).',
  },
  {
    ...appDefaults,
    name: 'getAppAsset',
    method: 'GET',
    path: '/app/assets/{file}',
    handler: 'http/app/get-app-asset.ts',
    summary:
      "A file of the dashboard (script, styles), named by its content's hash: cacheable a year.",
  },
  {
    ...docsDefaults,
    name: 'getOpenApiDocument',
    method: 'GET',
    path: '/v1/openapi.json',
    handler: 'http/docs/get-openapi.ts',
    summary: 'The OpenAPI 3.1 document of this API (public, cacheable for five minutes).',
  },
  {
    ...docsDefaults,
    name: 'getApiDocsPage',
    method: 'GET',
    path: '/v1/docs',
    handler: 'http/docs/get-docs-page.ts',
    summary:
      'The API reference page (HTML): Redoc draws this document, served from this origin only.',
  },
  {
    ...docsDefaults,
    name: 'getApiDocsScript',
    method: 'GET',
    path: '/v1/docs/redoc.js',
    handler: 'http/docs/get-docs-script.ts',
    summary: "The reference page's script: Redoc's standalone bundle, bundled with the service.",
  },
  {
    ...publicPageDefaults,
    name: 'getConfirmPage',
    method: 'GET',
    path: '/c/{token}',
    handler: 'http/confirm/get-confirm-page.ts',
    // Checks the link's signature (a key derived from the keyed-hash secret) and reads its answer.
    access: ['table:read', 'secrets:keyedHash'],
    summary:
      'The page of a confirmation link (HTML): one button, “Confirm my answer”, that posts to the same address; opening it changes nothing (mail scanners open every link).',
  },
  {
    ...publicPageDefaults,
    name: 'confirmSubmission',
    method: 'POST',
    path: '/c/{token}',
    handler: 'http/confirm/post-confirm.ts',
    // The transaction retries on contention (200 clicks racing for the last places).
    timeoutSeconds: 10,
    // The confirm transaction: the submission, a counter shard and a usage shard; the form
    // closed at its limit as the submit path closes it.
    access: ['table:read', 'table:write', 'secrets:keyedHash'],
    summary:
      'Confirms the answer a confirmation link names (pending → confirmed, counted under the form’s limit as a new post) and answers a page in words: confirmed, already confirmed, expired, not valid, full.',
  },
  {
    ...pageDefaults,
    name: 'getFormPage',
    method: 'GET',
    path: '/f/{key}',
    handler: 'http/pages/get-form-page.ts',
    // The uploads bucket's name, for the CSP's connect-src (the script posts files to it).
    access: ['table:read', 'uploads:postTarget'],
    summary:
      "The hosted form page (HTML): the form's fields and design; posts to /s/{key} with or without JavaScript.",
  },
  {
    ...pageDefaults,
    name: 'getPublicForm',
    method: 'GET',
    path: '/f/{key}/form.json',
    handler: 'http/pages/get-form-json.ts',
    access: ['table:read'],
    summary:
      "What the embed draws: the form's public fields and design (no secret); only to its allowed websites.",
  },
  {
    ...publicPageDefaults,
    name: 'countView',
    method: 'POST',
    path: '/f/{key}/views',
    handler: 'http/pages/post-view.ts',
    // Finds the form by its key (and, for a page step, reads its pages), counts the visitor's
    // views or steps this minute (RATE# items), then adds to its hour bucket: UpdateItem on
    // FORM# items only.
    access: ['table:read', 'forms:update', 'rateLimits:count'],
    summary:
      'The view beacon of the hosted page and the embed: one per page load that shows the form; with ?reached=started or ?reached=<page>, a step of the funnel instead; bots are not counted, nor a visitor’s views past 10 a minute, nor their steps past 10 a minute; nothing about the visitor is kept.',
  },
  {
    ...publicPageDefaults,
    name: 'countViewImage',
    method: 'GET',
    path: '/f/{key}/views',
    handler: 'http/pages/get-view-image.ts',
    // The beacon's grants: finds the form by its key, counts the visitor's views this minute
    // (RATE# items), then adds to its hour bucket.
    access: ['table:read', 'forms:update', 'rateLimits:count'],
    summary:
      'The view image of a page without script (the pasted HTML form; the hosted page inside <noscript>): the same view rules as the beacon, an empty 1 × 1 SVG, never cached.',
  },
  {
    ...pageDefaults,
    name: 'getEmbedScript',
    method: 'GET',
    path: '/embed.js',
    handler: 'http/pages/get-embed-script.ts',
    summary:
      'The script of the hosted page and of the embed (<script src=".../embed.js" data-form="KEY" async>).',
  },
];

/** One function of the stack: a route's own, or a group's. */
export interface RouteFunction {
  /** The construct id: the route's name, or its group's. */
  name: string;
  /** Handler module relative to `lambdas/`. */
  handler: string;
  routes: readonly Route[];
  area: RouteArea;
  memoryMb: number;
  timeoutSeconds: number;
  streaming: boolean;
  access: readonly Access[];
}

/** The handler module of a group's function. */
export const groupHandler = (group: string) => `http/groups/${group}.generated.ts`;

const sameAccess = (left: readonly Access[], right: readonly Access[]) => {
  const [a, b] = [new Set(left), new Set(right)];
  return a.size === b.size && [...a].every((kind) => b.has(kind));
};

/**
 * The functions a route table needs: one per route without a group, one
 * per group. Throws when a group's routes disagree on grants, area, memory,
 * timeout or streaming (a group must never widen what one of its routes may
 * do), or a group is named like a route.
 */
export function routeFunctions(table: readonly Route[] = routes): RouteFunction[] {
  const functions: RouteFunction[] = [];
  const groups = new Map<string, RouteFunction>();
  for (const route of table) {
    if (!route.group) {
      functions.push({ ...route, handler: route.handler, routes: [route] });
      continue;
    }
    const known = groups.get(route.group);
    if (!known) {
      const fn: RouteFunction = {
        name: route.group,
        handler: groupHandler(route.group),
        routes: [route],
        area: route.area,
        memoryMb: route.memoryMb,
        timeoutSeconds: route.timeoutSeconds,
        streaming: route.streaming,
        access: [...new Set(route.access)],
      };
      groups.set(route.group, fn);
      functions.push(fn);
      continue;
    }
    if (!sameAccess(known.access, route.access)) {
      throw new Error(
        `route ${route.name} holds other grants than group ${route.group} (${[...route.access].join(', ')} vs ${known.access.join(', ')}): make it a function of its own`,
      );
    }
    if (
      known.area !== route.area ||
      known.memoryMb !== route.memoryMb ||
      known.timeoutSeconds !== route.timeoutSeconds ||
      known.streaming !== route.streaming
    ) {
      throw new Error(
        `route ${route.name} disagrees with group ${route.group} on area, memory, timeout or streaming`,
      );
    }
    known.routes = [...known.routes, route];
  }
  const names = new Set(table.map((route) => route.name));
  for (const group of groups.keys()) {
    if (names.has(group)) throw new Error(`group ${group} is named like a route`);
  }
  return functions;
}

/**
 * Answers every request no route matches: 404 for an unknown path, 405 for a
 * known path with another method. On AWS it sits behind `ANY` methods; the
 * local gateway calls it the same way.
 */
export const fallbackRoute = {
  name: 'fallback',
  handler: 'http/fallback.ts',
  memoryMb: 256,
  timeoutSeconds: 5,
  access: [] as readonly Access[],
} as const;

/**
 * Public GET routes (the hosted page, the embed script, the API document
 * and its page) answer HEAD too, with the GET's status and headers and no
 * body: people and link checkers probe pages with `curl -I`. The CDK stack
 * adds the HEAD method, the local gateway and the fallback's `Allow`
 * follow this rule, and withRequestId drops the body.
 */
export function answersHead(route: Pick<Route, 'method' | 'auth'>): boolean {
  return route.method === 'GET' && route.auth === 'public';
}

/** Routes of the API (and its pages): the OpenAPI document lists these; the dashboard's are not API. */
export const documentedRoute = (route: Pick<Route, 'path'>) =>
  route.path !== '/app' && !route.path.startsWith('/app/');

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

function pattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) =>
      /^\{[^}]+\+\}$/.test(part)
        ? '(.+)'
        : /^\{[^}]+\}$/.test(part)
          ? '([^/]+)'
          : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function parameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => m[1]!);
}

/**
 * Most specific first, as API Gateway matches: a literal segment beats a
 * parameter in the same place (`/submissions/search` before
 * `/submissions/{submissionId}`), a parameter beats a greedy `{proxy+}`.
 */
const specificity = (path: string) =>
  path.split('/').map((part) => (part.endsWith('+}') ? 0 : part.startsWith('{') ? 1 : 2));
const bySpecificity = (a: Route, b: Route) => {
  const [left, right] = [specificity(a.path), specificity(b.path)];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (right[i] ?? -1) - (left[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
};

const compiled = [...routes].sort(bySpecificity).map((route) => ({
  route,
  regex: pattern(route.path),
  names: parameterNames(route.path),
}));

/**
 * Finds the route for a request. `allowed` lists the methods the path takes
 * when it is known, so the caller can tell 404 from 405; `isPublic` says the
 * path is one any website may call (CORS on every answer).
 */
export function matchRoute(
  method: string,
  path: string,
): { match: RouteMatch | undefined; allowed: AllowedMethod[]; isPublic: boolean } {
  const allowed: AllowedMethod[] = [];
  let match: RouteMatch | undefined;
  let isPublic = false;
  const asked = method.toUpperCase();
  // The most specific resource that matches is the one (as in API Gateway's tree): only its
  // methods are allowed, whatever less specific templates would also match.
  let resource: string | undefined;
  for (const { route, regex, names } of compiled) {
    if (resource !== undefined && route.path !== resource) continue;
    const found = regex.exec(path);
    if (!found) continue;
    resource = route.path;
    allowed.push(route.method);
    if (answersHead(route)) allowed.push('HEAD');
    if (route.auth === 'public') isPublic = true;
    const takes = route.method === asked || (asked === 'HEAD' && answersHead(route));
    if (takes && !match) {
      const pathParameters: Record<string, string> = {};
      names.forEach((name, i) => {
        pathParameters[name] = safeDecode(found[i + 1]!);
      });
      match = { route, pathParameters };
    }
  }
  return { match, allowed, isPublic };
}

/** A malformed %-escape stays as sent: the route then answers 404, never 500. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
