import * as z from 'zod/mini';
import { AUDIT_ACTIONS } from '#domain/audit.ts';
import { DELIVERY_EVENTS } from '#domain/delivery-log.ts';
import { EMAIL_STATUSES } from '#domain/email-outcomes.ts';
import { SCAN_STATUSES } from '#domain/file-scans.ts';
import { CONDITION_OPERATORS } from '#domain/form-logic.ts';
import { FIELD_TYPES, FORM_TYPES } from '#domain/form-model.ts';
import { INTEGRATION_KINDS } from '#domain/integrations.ts';
import { ROLES } from '#domain/members.ts';
import { FOLDERS } from '#domain/submission-folders.ts';
import { SPAM_REASONS } from '#domain/submission-model.ts';
import { DEVICES, DROP_REASONS } from '#domain/summary-counters.ts';
import { IP_STORAGE } from '#domain/visitor-ip.ts';
import { CANCEL_REASONS, DELIVERY_STATUSES } from '#domain/webhook-delivery.ts';
import { FILES_SCANNED_EVENT_TYPE, WEBHOOK_EVENT_TYPE } from '#domain/webhook-payload.ts';

/**
 * The shapes of the API's answers, by name: what contracts name in their
 * answers, what the OpenAPI document lists as components, and what the
 * typed client returns. Read by the document's build, the tests and the
 * client's types only: no handler bundles this module.
 */

const dateTime = () => z.iso.datetime({ offset: true });
const count = () => z.int().check(z.minimum(0));
const nullableString = () => z.nullable(z.string());

/** One test of an earlier answer (docs/forms.md#conditions). */
const condition = z.object({
  field: z.string(),
  op: z.enum(CONDITION_OPERATORS),
  /** A list for `in`/`notIn`; none for `empty`/`notEmpty`. */
  value: z.optional(z.union([z.string(), z.array(z.string())])),
});

/** Every condition holds (`all`), or one does (`any`). */
const conditionGroup = z.union([
  z.object({ all: z.array(condition) }),
  z.object({ any: z.array(condition) }),
]);

const fieldDefinition = z.looseObject({
  id: z.string(),
  type: z.enum(FIELD_TYPES),
  label: z.optional(z.string()),
  required: z.optional(z.boolean()),
  options: z.optional(z.array(z.string())),
  /** Asked only when this holds on earlier answers (docs/forms.md#logic). */
  showIf: z.optional(conditionGroup),
  /** Must be answered, when asked, if this holds. */
  requiredIf: z.optional(conditionGroup),
  /** Filled from the hosted page's URL query (`?id=value`); a `hidden` field always is. */
  prefill: z.optional(z.boolean()),
});

/** A step of the form (docs/forms.md#pages). */
const formPage = z.object({
  id: z.string(),
  title: z.optional(z.string()),
  fields: z.array(z.string()),
  /** Tried in order; the first that holds goes to `goTo` (a later page, or `end`). */
  next: z.optional(z.array(z.object({ if: conditionGroup, goTo: z.string() }))),
});

const formSettings = {
  name: z.string(),
  type: z.enum(FORM_TYPES),
  emoji: nullableString(),
  status: z.enum(['active', 'paused']),
  closedReason: z.nullable(z.enum(['manual', 'max_submissions', 'auto_close_date'])),
  maxSubmissions: z.nullable(z.int().check(z.minimum(1))),
  autoCloseAt: z.nullable(dateTime()),
  closedMessage: nullableString(),
  notifyEnabled: z.boolean(),
  notifyEmail: nullableString(),
  notifyCc: z.array(z.string()),
  /** Routing by answer (Pro): every rule that holds adds its `to` (docs/forms.md#routing-by-answer). */
  notifyRules: z.array(z.object({ if: conditionGroup, to: z.array(z.string()) })),
  notifySubject: z.string(),
  notifyFromName: z.string(),
  autoreplyEnabled: z.boolean(),
  autoreplySubject: nullableString(),
  autoreplyBody: nullableString(),
  autoreplyAnswerPlaceholders: z.boolean(),
  autoreplyHourlyLimit: z.int().check(z.minimum(1), z.maximum(1000)),
  completionMode: z.enum(['default', 'message', 'redirect']),
  completionTitle: nullableString(),
  completionMessage: nullableString(),
  redirectUrl: nullableString(),
  fields: z.nullable(z.array(fieldDefinition)),
  /** The form's steps; null: one page of every field. */
  pages: z.nullable(z.array(formPage)),
  design: z.looseObject({}),
  allowedOrigins: z.array(z.string()),
  blockedIps: z.array(z.string()),
  blockedCountries: z.array(z.string()),
  captchaEnabled: z.boolean(),
  captchaProvider: z.nullable(z.literal('turnstile')),
  captchaSiteKey: nullableString(),
  dontStoreIp: z.boolean(),
  /** The duplicate rule: the same answers from the same visitor within 24 h go to spam. */
  markDuplicates: z.boolean(),
  /** One answer per person: the email field whose address may answer once (docs/forms.md#one-answer-per-person). */
  unique: z.nullable(z.object({ field: z.string() })),
  retentionDays: z.nullable(z.int().check(z.minimum(1), z.maximum(3650))),
  /** Confirm by email: the email field whose address confirms each answer (docs/forms.md#confirm-by-email). */
  confirmEmail: z.nullable(z.object({ field: z.string() })),
  allowUploads: z.boolean(),
  uploadLimitMb: z.number(),
};

const Form = z.object({
  id: z.string(),
  key: z.string(),
  endpoint: z.string(),
  userId: z.string(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  captchaSecretKeySet: z.boolean(),
  /** The integrations connected (docs/integrations.md#the-api). */
  integrations: z.array(z.enum(INTEGRATION_KINDS)),
  ...formSettings,
});

const ShortForm = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(FORM_TYPES),
  emoji: nullableString(),
  status: z.enum(['active', 'paused']),
  key: z.string(),
  endpoint: z.string(),
  createdAt: dateTime(),
  submissionCount: count(),
  testCount: count(),
  unreadCount: count(),
});

const BounceTypeOrNull = z.nullable(z.enum(['Permanent', 'Transient', 'Undetermined']));

/** The status is its To's; each address it went to has its own (a Cc may bounce alone). */
const EmailOutcome = z.object({
  status: z.enum(EMAIL_STATUSES),
  at: dateTime(),
  /** A bounce's type (Permanent: the mailbox does not exist); null otherwise. */
  bounceType: BounceTypeOrNull,
  /** Every address it was sent to, its To first (empty when not sent, or sent before 2026-11-26's per-recipient fates). */
  recipients: z.array(
    z.object({
      email: z.string(),
      /** `sent` until SES says more of this address. */
      status: z.enum(['sent', 'delayed', 'delivered', 'rejected', 'bounced', 'complained']),
      at: dateTime(),
      bounceType: BounceTypeOrNull,
    }),
  ),
});

/** A file of a submission, with its malware scan (docs/uploads-and-pages.md#malware-scanning). */
const FileOfSubmission = z.object({
  /** The answer name the file was sent under (absent on files stored before 2026-11-26). */
  field: z.optional(z.string()),
  name: z.string(),
  mime: z.string(),
  size: count(),
  /** `pending` until its verdict; `not_scanned` where scanning is off (or before it was on). */
  scan: z.enum(SCAN_STATUSES),
  /** The threats found, for `infected`. */
  threats: z.optional(z.array(z.string())),
  /** When its verdict came. */
  scannedAt: z.optional(dateTime()),
});

const Submission = z.object({
  id: z.string(),
  formId: z.string(),
  /** Answers by name; `_invalid` lists the field checks that failed (a JSON string). */
  data: z.record(z.string(), z.string()),
  meta: z.object({
    ip: z.optional(z.string()),
    userAgent: z.string(),
    referrer: z.string(),
    country: z.optional(z.string()),
    deviceClass: z.optional(z.enum(['mobile', 'desktop', 'tablet', 'bot'])),
    /** Sent from a page that counts no views (docs/analytics.md#views): not in the conversion rate. */
    noView: z.optional(z.literal(true)),
    files: z.optional(z.array(FileOfSubmission)),
    /** The page the form was sent from, when it has pages (docs/forms.md#pages). */
    endedOn: z.optional(z.string()),
  }),
  read: z.boolean(),
  starred: z.boolean(),
  isSpam: z.boolean(),
  isTest: z.boolean(),
  createdAt: dateTime(),
  /** Only while spam: why (the link rule, the duplicate rule, or moved there by the owner). */
  spamReason: z.optional(z.enum(SPAM_REASONS)),
  /**
   * Confirm by email (docs/submit.md#confirm-by-email): null when its form
   * did not ask for confirmation when it was stored.
   */
  confirmation: z.nullable(
    z.object({
      status: z.enum(['pending', 'confirmed']),
      requestedAt: dateTime(),
      confirmedAt: z.nullable(dateTime()),
    }),
  ),
  /** In lists only: the longest answer, cut to 140 characters. */
  preview: z.optional(z.string()),
  /**
   * Reading one submission only: what became of its owner notification and
   * its auto-reply (null: none was due), docs/delivery.md#what-became-of-an-email.
   */
  emails: z.optional(
    z.object({ notification: z.nullable(EmailOutcome), autoreply: z.nullable(EmailOutcome) }),
  ),
});

const Webhook = z.object({
  formId: z.string(),
  url: z.string(),
  secret: z.string().check(z.startsWith('whsec_')),
  state: z.enum(['active', 'failing']),
  lastError: nullableString(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});

const Delivery = z.object({
  deliveryId: z.string(),
  submissionId: z.string(),
  /** What it announces (docs/delivery.md#files-scanned). */
  event: z.enum(DELIVERY_EVENTS),
  webhookId: z.string().check(z.startsWith('msg_')),
  status: z.enum(DELIVERY_STATUSES),
  cancelReason: z.nullable(z.enum(CANCEL_REASONS)),
  attemptCount: count(),
  nextAttemptAt: z.nullable(dateTime()),
  attempts: z.array(
    z.object({
      number: z.int().check(z.minimum(1)),
      at: dateTime(),
      outcome: z.enum(['delivered', 'retrying', 'failed']),
      responseStatus: z.nullable(z.int()),
      durationMs: z.number().check(z.minimum(0)),
      responseBody: nullableString(),
      error: nullableString(),
      nextAttemptAt: z.nullable(dateTime()),
    }),
  ),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});

/** A connected Slack or Discord integration; its URL cut (a secret: docs/integrations.md#the-api). */
const ChatIntegration = z.object({
  status: z.enum(['active', 'failing']),
  lastError: nullableString(),
  connectedAt: dateTime(),
  lastDeliveryAt: z.nullable(dateTime()),
  /** The URL with its last path segment cut to 4 characters and `…`. */
  webhookUrl: z.string().check(z.endsWith('…')),
});

/** A connected Google Sheets integration (docs/integrations.md#connecting-a-sheet). */
const SheetsIntegration = z.object({
  status: z.enum(['active', 'failing']),
  lastError: nullableString(),
  connectedAt: dateTime(),
  lastDeliveryAt: z.nullable(dateTime()),
  spreadsheetId: z.string(),
  /** The sheet rows are appended to, as the spreadsheet spells it. */
  sheetName: z.string(),
});

const Member = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  createdAt: dateTime(),
  lastSignInAt: z.nullable(dateTime()),
});

const ApiKey = z.object({
  keyId: z.string(),
  name: z.string(),
  userId: z.string(),
  createdByEmail: nullableString(),
  createdAt: dateTime(),
  lastUsedOn: nullableString(),
  revokedAt: z.nullable(dateTime()),
});

const teamOfPerson = z.object({
  teamId: z.string(),
  name: z.string(),
  plan: z.enum(['free', 'pro']),
  role: z.enum(ROLES),
});

const fieldSummary = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('choice'),
    answered: count(),
    /** Each option now (renamed ones' answers included), then `(other)` when any. */
    counts: z.record(z.string(), count()),
    /** Answers under words no longer among the options, by those words (docs/analytics.md#summary). */
    former: z.record(z.string(), count()),
  }),
  z.object({ kind: z.literal('checkbox'), answered: count(), checked: count() }),
  z.object({
    kind: z.literal('rating'),
    answered: count(),
    /** The field's scale starts here: 1 (stars) or 0 (a 0–max score); `counts` runs min..max. */
    min: z.int(),
    max: z.int(),
    average: z.nullable(z.number()),
    counts: z.record(z.string(), count()),
  }),
  z.object({
    kind: z.literal('number'),
    answered: count(),
    min: z.nullable(z.number()),
    max: z.nullable(z.number()),
    average: z.nullable(z.number()),
  }),
  z.object({ kind: z.literal('text'), answered: count() }),
]);

const dated = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.object({ date: z.iso.date(), ...shape });

const Summary = z.object({
  formId: z.string(),
  type: z.enum(FORM_TYPES),
  from: z.iso.date(),
  to: z.iso.date(),
  tz: z.string(),
  asOf: dateTime(),
  totals: z.object({
    views: count(),
    stored: count(),
    spam: count(),
    dropped: count(),
    tests: count(),
    /**
     * Stored posts of pages that count their views, over those views (docs/analytics.md#views);
     * null without views, or when views were not counted for some posts (`viewsNotCounted`).
     */
    conversionRate: z.nullable(z.number()),
    /** Stored posts from pages that count no views (own forms, the API): not in the rate. */
    postsWithoutViews: count(),
    /** More posts than views: views were not counted for some (a pasted form without its image). */
    viewsNotCounted: z.boolean(),
  }),
  days: z.array(dated({ views: count(), stored: count(), spam: count(), dropped: count() })),
  dropped: z.object(
    Object.fromEntries(DROP_REASONS.map((reason) => [reason, count()])) as Record<
      (typeof DROP_REASONS)[number],
      ReturnType<typeof count>
    >,
  ),
  /** Posts that waited for confirmation by email and expired unconfirmed, in the range. */
  notConfirmed: count(),
  devices: z.object(
    Object.fromEntries(DEVICES.map((device) => [device, count()])) as Record<
      (typeof DEVICES)[number],
      ReturnType<typeof count>
    >,
  ),
  countries: z.array(z.object({ code: z.string(), count: count() })),
  referrers: z.array(z.object({ host: z.string(), count: count() })),
  fields: z.record(z.string(), fieldSummary),
  /** The block of the form's type (contact, waitlist, feedback, rsvp; `{}` for custom). */
  byType: z.union([
    z.object({ unread: count(), medianMinutesToFirstRead: z.nullable(z.number()) }),
    z.object({
      signups: count(),
      uniqueEmails: count(),
      cumulative: z.array(dated({ total: count() })),
    }),
    z.object({
      ratingField: z.nullable(z.string()),
      average: z.nullable(z.number()),
      distribution: z.record(z.string(), count()),
      trend: z.array(dated({ average: z.nullable(z.number()) })),
      nps: z.nullable(
        z.object({ promoters: count(), passives: count(), detractors: count(), score: z.int() }),
      ),
    }),
    z.object({ yes: count(), no: count(), maybe: count(), guests: z.number() }),
    z.object({}),
  ]),
  /**
   * How far visitors of the form's pages got (docs/analytics.md#the-funnel), from beacons
   * that carry no answer: views, those who answered anything, arrivals on each page from
   * the second (the form's pages now; none without pages), and the stored posts of those pages.
   */
  funnel: z.object({
    views: count(),
    /** Page loads where the visitor answered anything. */
    started: count(),
    reached: z.array(
      z.object({
        /** The page's place in the form, from 2. */
        step: z.int().check(z.minimum(2)),
        /** The page's id. */
        page: z.string(),
        count: count(),
      }),
    ),
    /** Stored submissions from pages that count their views (stored less postsWithoutViews). */
    sent: count(),
  }),
});

export const RESPONSES = {
  ErrorEnvelope: z.object({
    ok: z.literal(false),
    /** Machine-readable code, e.g. `not_found`. */
    error: z.string(),
    /** For people; never parse it. */
    message: z.string(),
    /** With `invalid_request`: what failed in the body or query string. */
    issues: z.optional(
      z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
    ),
    requestId: z.optional(z.string()),
  }),
  Ok: z.object({ ok: z.literal(true) }),
  Count: z.object({ count: count() }),
  /** `POST /v1/privacy/erasures` (docs/privacy.md#erase-by-email). */
  Erasure: z.object({
    count: count(),
    forms: z.array(z.object({ id: z.string(), name: z.string(), count: count() })),
  }),
  Form,
  Summary,
  FormList: z.object({ forms: z.array(ShortForm) }),
  SubmissionCreated: z.object({ submissionId: z.string() }),
  Submission,
  SubmissionPage: z.object({
    items: z.array(Submission),
    page: z.int(),
    pageSize: z.int(),
    pageCount: z.int(),
    total: count(),
    unreadCount: count(),
    submissionCount: count(),
    testCount: count(),
    folderCounts: z.object(
      Object.fromEntries(FOLDERS.map((folder) => [folder, count()])) as {
        all: ReturnType<typeof count>;
        unread: ReturnType<typeof count>;
        starred: ReturnType<typeof count>;
        spam: ReturnType<typeof count>;
        pending: ReturnType<typeof count>;
      },
    ),
    /**
     * With `reason` only: the spam folder's submissions by spam reason (`none`: stored
     * before reasons were kept), docs/submissions.md#spam-reasons.
     */
    reasonCounts: z.optional(
      z.object({
        links: count(),
        duplicate: count(),
        moved: count(),
        duplicate_person: count(),
        none: count(),
      }),
    ),
    asOf: dateTime(),
  }),
  SearchPage: z.object({
    items: z.array(Submission),
    next: nullableString(),
    searched: count(),
    total: count(),
  }),
  FileLink: z.object({
    url: z.string(),
    name: z.string(),
    mime: z.string(),
    expiresAt: dateTime(),
  }),
  Webhook,
  Delivery,
  DeliveryPage: z.object({ deliveries: z.array(Delivery), next: nullableString() }),
  ChatIntegration,
  SheetsIntegration,
  /** What `PUT …/integrations/{kind}` answers: Sheets' object, or a chat's. */
  ConnectedIntegration: z.union([SheetsIntegration, ChatIntegration]),
  Integrations: z.object({
    /** The Google service account's address to share a sheet with; null without a key. */
    serviceAccountEmail: nullableString(),
    /** The webhook, as `GET /v1/forms/{id}/webhook` shows it but without its secret. */
    webhook: z.nullable(
      z.object({
        url: z.string(),
        status: z.enum(['active', 'failing']),
        lastError: nullableString(),
        connectedAt: dateTime(),
        /** When the newest delivered delivery of the log was delivered. */
        lastDeliveryAt: z.nullable(dateTime()),
      }),
    ),
    sheets: z.nullable(SheetsIntegration),
    slack: z.nullable(ChatIntegration),
    discord: z.nullable(ChatIntegration),
  }),
  SubmitAccepted: z.object({
    ok: z.literal(true),
    /** Absent when the post was dropped as a bot. */
    submissionId: z.optional(z.string()),
    warning: z.optional(z.literal('near_limit')),
    /** The form asks for confirmation by email: said of every post it accepts, spam included (docs/submit.md#confirm-by-email). */
    pending: z.optional(z.literal('confirm_email')),
  }),
  UploadGrants: z.object({
    ok: z.literal(true),
    uploads: z.array(
      z.object({
        /** The id to name in `_uploads`. */
        uploadId: z.string(),
        /** Where to POST the file (the bucket). */
        url: z.string(),
        /** Form fields to send before the file, exactly as given. */
        fields: z.record(z.string(), z.string()),
        expiresAt: dateTime(),
      }),
    ),
  }),
  PublicForm: z.object({
    key: z.string(),
    title: z.string(),
    description: nullableString(),
    theme: z.enum(['light', 'dark', 'auto']),
    accent: nullableString(),
    submitLabel: z.string(),
    fields: z.array(fieldDefinition),
    /** The form's steps, for the page's script to walk; null: one page. */
    pages: z.nullable(z.array(formPage)),
    multipart: z.boolean(),
    /** A file field is drawn but the form cannot take files now: disabled, saying so. */
    filesOff: z.boolean(),
    closedMessage: nullableString(),
    captchaSiteKey: nullableString(),
    successTitle: z.string(),
    successMessage: z.string(),
    redirectUrl: nullableString(),
    /** Server time (Unix ms): the `_t` to post back. */
    renderedAt: z.int(),
    /** Milliseconds to wait after drawing before posting (the fill-time check's minimum). */
    minFillMs: z.optional(z.int()),
  }),
  WebhookPayload: z.object({
    type: z.literal(WEBHOOK_EVENT_TYPE),
    /** When this attempt was sent. */
    timestamp: dateTime(),
    data: z.object({
      formId: z.string(),
      submissionId: z.string(),
      submittedAt: dateTime(),
      test: z.boolean(),
      spam: z.boolean(),
      /** Answers by name; no special fields, no files. */
      fields: z.record(z.string(), z.string()),
      /** Only when files were attached: each with its malware scan state, never a link. */
      files: z.optional(z.array(FileOfSubmission)),
    }),
  }),
  FilesScannedPayload: z.object({
    type: z.literal(FILES_SCANNED_EVENT_TYPE),
    /** When this attempt was sent. */
    timestamp: dateTime(),
    data: z.object({
      formId: z.string(),
      submissionId: z.string(),
      submittedAt: dateTime(),
      test: z.boolean(),
      spam: z.boolean(),
      /** Every file of the submission with its verdict. */
      files: z.array(FileOfSubmission),
    }),
  }),
  SignInQueued: z.object({ ok: z.literal(true), message: z.string() }),
  SignedIn: z.object({
    user: Member,
    teamId: z.string(),
    teams: z.array(z.object({ teamId: z.string(), role: z.enum(ROLES) })),
  }),
  SessionView: z.object({
    via: z.enum(['apiKey', 'session']),
    user: Member,
    role: z.enum(ROLES),
    team: z.object({ teamId: z.string(), name: z.string(), plan: z.enum(['free', 'pro']) }),
    teams: z.array(teamOfPerson),
  }),
  SwitchedTeam: z.object({ user: Member, teamId: z.string() }),
  SessionList: z.object({
    sessions: z.array(
      z.object({
        sessionId: z.string(),
        createdAt: dateTime(),
        lastSeenAt: dateTime(),
        expiresAt: dateTime(),
        ip: nullableString(),
        userAgent: nullableString(),
        current: z.boolean(),
      }),
    ),
  }),
  TeamView: z.object({
    teamId: z.string(),
    name: z.string(),
    plan: z.enum(['free', 'pro']),
    usage: z.object({
      month: z.string(),
      submissions: count(),
      allowance: count(),
      nearLimitFrom: count(),
    }),
    memberCount: count(),
    formCount: count(),
    formLimit: z.nullable(count()),
    /** What submissions keep of a visitor's address (docs/people.md#visitor-addresses). */
    ipStorage: z.enum(IP_STORAGE),
    /**
     * When SES began refusing the team's emails (its tenant paused for its
     * bounces or complaints), null while they go out
     * (docs/delivery.md#one-team-cannot-pause-everyones-mail).
     */
    emailPausedAt: z.nullable(dateTime()),
  }),
  Member,
  MemberList: z.object({ members: z.array(Member) }),
  SuppressionList: z.object({
    suppressions: z.array(
      z.object({
        email: z.string(),
        reason: z.enum(['bounce', 'complaint']),
        bounceType: z.nullable(z.enum(['Permanent', 'Transient', 'Undetermined'])),
        at: dateTime(),
        /** The email that bounced or was complained about: its submission. */
        formId: z.string(),
        submissionId: z.string(),
      }),
    ),
    /** The `cursor` of the next page (its last mailbox), null at the end. */
    next: nullableString(),
  }),
  ApiKeyList: z.object({ apiKeys: z.array(ApiKey) }),
  ApiKeyCreated: z.object({ ...ApiKey.shape, apiKey: z.string() }),
  AuditPage: z.object({
    events: z.array(
      z.object({
        eventId: z.string(),
        teamId: z.string(),
        action: z.enum(AUDIT_ACTIONS),
        actor: z.object({
          kind: z.enum(['member', 'apiKey', 'anonymous']),
          userId: nullableString(),
          email: nullableString(),
          keyId: nullableString(),
        }),
        target: nullableString(),
        details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
        ip: nullableString(),
        at: dateTime(),
      }),
    ),
    next: nullableString(),
  }),
};

export type Responses = typeof RESPONSES;
export type ResponseName = keyof Responses;
/** The body a named answer carries, as the client receives it. */
export type ResponseBody<N extends ResponseName> = z.infer<Responses[N]>;
