import { randomUUIDv7 } from 'node:crypto';
import { config } from '#config';
import { checkAnswers, invalidMarker } from '#domain/answer-checks.ts';
import { newAnswerNames } from '#domain/answer-columns.ts';
import { askedAnswers } from '#domain/asked-answers.ts';
import { pendingConfirmation } from '#domain/confirmation-state.ts';
import { PENDING_UPLOAD_SECONDS, uploadAlreadyUsed, uploadIdsOf } from '#domain/direct-uploads.ts';
import { addressesOf, emailHash } from '#domain/email-index.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import { ServiceError } from '#domain/errors.ts';
import { filesToScan } from '#domain/file-scans.ts';
import type { PlanName } from '#domain/form-gating.ts';
import type { FormDesign, FormRecord } from '#domain/form-model.ts';
import type { RecordedAnswer } from '#domain/idempotency.ts';
import { isFormKey } from '#domain/ids.ts';
import { keyedVisitor, visitorIdentity } from '#domain/same-visitor.ts';
import { duplicateFingerprint, isLinkSpam } from '#domain/spam-rules.ts';
import { storedReferrer } from '#domain/stored-referrer.ts';
import {
  isBotByHoneypotOrTiming,
  isEmptySubmission,
  normalizeAnswers,
  type SpecialFields,
  storedFileField,
} from '#domain/submission-answers.ts';
import type { DeviceClass, SpamReason, StoredFile, Submission } from '#domain/submission-model.ts';
import {
  BODY_LIMIT_BYTES,
  bodyLimitOf,
  closedReasonAt,
  completionTexts,
  DUPLICATE_WINDOW_SECONDS,
  fileLimitOf,
  formClosed,
  MAX_FILES_PER_SUBMISSION,
  monthlyAllowance,
  nearLimitFrom,
  redirectTarget,
  spamQuotaAt,
  submissionLimitReached,
  uploadsEnabled,
  usageMonth,
} from '#domain/submit-rules.ts';
import { dropCounter, hourOf } from '#domain/summary-counters.ts';
import type { Team } from '#domain/team.ts';
import { personMailbox, personPlaceHash } from '#domain/unique-person.ts';
import { blockedBy, originAllowed } from '#domain/visitor.ts';
import { storedVisitorIp } from '#domain/visitor-ip.ts';
import { errorFields, log } from '#log';
import { verifyTurnstile } from '#net/turnstile.ts';
import { closeFormAtLimit, findFormKey } from '#store/forms.ts';
import { storePost } from '#store/submissions.ts';
import { readSubmitContext } from '#store/submit-context.ts';
import { addToHour } from '#store/summary-buckets.ts';
import type { ParsedBody, ReceivedFile } from './body.ts';
import { checkDirectUploads, type DirectFile } from './direct-files.ts';
import {
  earlierAnswer,
  keyClaim,
  keyHeldByAnother,
  type PostKey,
  postKeyOf,
} from './idempotency.ts';
import { parseSubmitBody } from './parse-body.ts';
import { enforceRateLimits } from './rate-limits.ts';

/** What the handler knows about the request before the pipeline runs. */
export interface SubmitRequest {
  key: string | undefined;
  contentType: string | undefined;
  body: Buffer;
  ip: string | undefined;
  country: string | undefined;
  deviceClass: DeviceClass | undefined;
  userAgent: string;
  origin: string | undefined;
  referer: string | undefined;
  /** The `Idempotency-Key` header as sent, each of its values (docs/submit.md#idempotency-key). */
  idempotencyKey?: string | readonly string[];
  /** The caller asked for a page rather than JSON (docs/submit.md#answers). */
  wantsPage?: boolean;
}

/** How a browser post ends: a redirect, or the thank-you page's texts and look. */
export interface CompletionView {
  redirect: string | undefined;
  title: string | null;
  message: string | null;
  design: FormDesign;
}

/** Which spam rule stored a post as spam (step 10). */
export type SpamRule = 'links' | 'duplicate' | 'duplicate_person';

/** Why a post was dropped quietly (steps 2, 6 and 10's spam cap). */
export type DropReason = 'blocked_ip' | 'blocked_country' | 'honeypot' | 'fill_time' | 'spam_cap';

export type SubmitOutcome =
  | {
      kind: 'stored';
      submissionId: string;
      nearLimit: boolean;
      /** The rule that made it spam; undefined for a clean post. */
      spamRule: SpamRule | undefined;
      /**
       * Answered as waiting for confirmation: every post a form with `confirmEmail` accepts,
       * spam included, though spam is stored without waiting (docs/submit.md#confirm-by-email).
       */
      pending: boolean;
      view: CompletionView;
    }
  /** Dropped by a block list, the honeypot, the fill-time check or the spam cap: nothing stored. */
  | { kind: 'dropped'; reason: DropReason; pending: boolean; view: CompletionView }
  /** A retry of a post stored under its `Idempotency-Key`: the first answer, nothing new. */
  | { kind: 'replayed'; answer: RecordedAnswer; view: CompletionView };

const USER_AGENT_MAX = 1000;
const REFERRER_MAX = 2048;

/**
 * The S3 client's module, imported on the first post that carries files:
 * JSON and urlencoded posts never load `@aws-sdk/client-s3` (the bundle keeps
 * it in the same file, evaluated only then). The module creates its client
 * once per container, on that first import.
 */
const uploads = () => import('#aws/uploads.ts');
/** A used upload's claim outlives its pending object (a day) by a day. */
const UPLOAD_CLAIM_SECONDS = PENDING_UPLOAD_SECONDS + 86_400;

/** Checking and moving direct uploads: loaded only by posts that name `_uploads`. */
const pendingUploads = () => import('#aws/pending-uploads.ts');

const formNotFound = () => new ServiceError('not_found', 'No form has this address');

/**
 * The twelve processing steps (docs/submit.md#processing-order), in
 * order: the first failing step decides the answer. Reads are arranged so an accepted post without files
 * makes four sequential DynamoDB round trips: key lookup; form, team and
 * usage read in parallel; both rate windows in parallel; one transaction.
 */
export async function acceptSubmission(request: SubmitRequest, now: Date): Promise<SubmitOutcome> {
  // 1. The form by key.
  if (!isFormKey(request.key)) throw formNotFound();
  const mapping = await findFormKey(request.key);
  if (!mapping) throw formNotFound();
  const month = usageMonth(now);
  const context = await readSubmitContext(mapping.formId, mapping.teamId, month);
  if (!context) throw formNotFound();
  try {
    const outcome = await stepsAfterTheForm(request, now, context, month);
    if (outcome.kind === 'dropped') await countDropped(context.form.id, outcome.reason, now);
    return outcome;
  } catch (error) {
    if (error instanceof ServiceError) await countDropped(context.form.id, error.code, now);
    throw error;
  }
}

/**
 * A post stopped after its form was found, in the summary's dropped counts
 * (docs/analytics.md#summary): one write, whose failure is logged and never
 * changes the answer.
 */
async function countDropped(formId: string, reasonOrCode: string, now: Date): Promise<void> {
  const counter = dropCounter(reasonOrCode);
  if (!counter) return;
  try {
    await addToHour(formId, hourOf(now.toISOString()), { [counter]: 1 });
  } catch (error) {
    log.error('dropped post not counted', { formId, ...errorFields(error) });
  }
}

/** Steps 2 to 5, once the form is found; then a keyed post's replay, or steps 6 to 12. */
async function stepsAfterTheForm(
  request: SubmitRequest,
  now: Date,
  context: NonNullable<Awaited<ReturnType<typeof readSubmitContext>>>,
  month: string,
): Promise<SubmitOutcome> {
  const { form, team } = context;
  const plan = team.plan;

  // 2. Block lists: dropped quietly, so a blocked sender learns nothing.
  const blocked = blockedBy(form, request.ip, request.country);
  if (blocked) {
    return {
      kind: 'dropped',
      reason: blocked,
      pending: answersPending(form),
      view: completionView(form, plan, request, {}),
    };
  }
  // 3. Allowed websites.
  if (!originAllowed(form.allowedOrigins, request.origin, request.referer)) {
    throw new ServiceError('origin_not_allowed', 'This website may not post to this form');
  }
  // 4. Rate limits.
  await enforceRateLimits(form.id, request.ip, now);

  // 5. The body.
  const body = await parseSubmitBody(request.contentType, request.body, {
    maxBodyBytes: bodyLimitOf(form, plan),
    maxFileBytes: fileLimitOf(form),
    maxFiles: MAX_FILES_PER_SUBMISSION,
    uploadsAllowed: uploadsEnabled(form, plan),
  });
  const { data, special } = normalizeAnswers(body.pairs);
  const view = completionView(form, plan, request, special);

  // 5 (retries). A post stored under its Idempotency-Key answers as it did, and does nothing.
  const postKey = postKeyOf(request.idempotencyKey, body);
  if (postKey) {
    const earlier = await earlierAnswer(form.id, postKey, now);
    if (earlier) return { kind: 'replayed', answer: earlier, view };
  }
  const received: ReceivedPost = { body, data, special, view, postKey };
  if (!postKey) return stepsAfterTheBody(request, now, context, month, received);
  try {
    return await stepsAfterTheBody(request, now, context, month, received);
  } catch (error) {
    // Refused, but its twin (the same post under the same key, sent at once) may have been
    // stored meanwhile: then this post answers as that one did (docs/submit.md#idempotency-key).
    if (!(error instanceof ServiceError) || error.code === 'idempotency_key_reused') throw error;
    const earlier = await earlierAnswer(form.id, postKey, now);
    if (earlier) return { kind: 'replayed', answer: earlier, view };
    throw error;
  }
}

/** A post's body once read: its answers, special fields, completion view and key. */
interface ReceivedPost {
  body: ParsedBody;
  data: Record<string, string>;
  special: SpecialFields;
  view: CompletionView;
  postKey: PostKey | undefined;
}

/** Steps 6 to 12, once the body is read. */
async function stepsAfterTheBody(
  request: SubmitRequest,
  now: Date,
  context: NonNullable<Awaited<ReturnType<typeof readSubmitContext>>>,
  month: string,
  { body, data: posted, special, view, postKey }: ReceivedPost,
): Promise<SubmitOutcome> {
  const { form, team } = context;
  const plan = team.plan;

  // 6. Bots caught by the honeypot or the fill-time check: dropped quietly.
  if (isBotByHoneypotOrTiming(special, now.getTime(), config.minFillTimeMs)) {
    return {
      kind: 'dropped',
      reason: special.gotcha ? 'honeypot' : 'fill_time',
      pending: answersPending(form),
      view,
    };
  }

  // 7. Empty posts, then files the form does not take. A refused file still
  // counts as content here, so a post of only a refused file names the file;
  // so does an upload id in `_uploads` (direct uploads, checked in S3 here).
  const uploadIds = uploadIdsOf(body.pairs);
  if (isEmptySubmission(posted, body.files.length + uploadIds.length + (body.fileError ? 1 : 0))) {
    throw new ServiceError('empty_submission', 'The submission has no answers');
  }
  if (body.fileError) throw body.fileError;
  const checkedUploads: DirectFile[] =
    uploadIds.length > 0
      ? await checkDirectUploads(
          form,
          uploadsEnabled(form, plan),
          uploadIds,
          body.files.length,
          now,
        )
      : [];
  if (Buffer.byteLength(JSON.stringify(posted)) > BODY_LIMIT_BYTES) {
    throw new ServiceError(
      'payload_too_large',
      'The answers exceed 200 KB; only files may make a post larger',
    );
  }

  // 7 (the form's logic). The form walked with the answers: those of fields it did not ask,
  // and their files, are dropped before anything stores or sends them; the checks (12) run on
  // the fields it asked, required as it decided (docs/submit.md#the-forms-logic).
  const asked = askedAnswers(form, posted, [...body.files, ...checkedUploads]);
  const data = asked.data;
  const keptFiles = new Set<object>(asked.files);
  const received = body.files.filter((file) => keptFiles.has(file));
  const direct = checkedUploads.filter((file) => keptFiles.has(file));
  const files = [...received, ...direct];

  // 8. Closed forms.
  if (closedReasonAt(form, now)) {
    await recordReachedLimit(form, now);
    throw formClosed(form, plan);
  }

  // 9. Captcha.
  if (form.captchaEnabled) await checkCaptcha(form, special.captchaToken, request);

  // 10. Link spam here; duplicates are claimed inside the storing transaction.
  const linkSpam = isLinkSpam(data);
  const submission: Submission = {
    id: randomUUIDv7(),
    formId: form.id,
    data,
    meta: visitorMeta(form, team, request, files, special),
    read: false,
    starred: false,
    isSpam: linkSpam,
    isTest: false,
    createdAt: now.toISOString(),
    ...(linkSpam ? { spamReason: 'links' as const } : {}),
    // Confirm by email: a clean post waits for its visitor's click (docs/submit.md#confirm-by-email).
    ...(form.confirmEmail && !linkSpam ? { confirmation: pendingConfirmation(now) } : {}),
  };
  if (asked.endedOn !== undefined) submission.meta.endedOn = asked.endedOn;

  // 12 (checks). Answers that fail the form's fields are stored, marked.
  const problems = checkAnswers(asked.fields, data, files);
  if (problems.length > 0) data._invalid = invalidMarker(problems);

  // 11 and 12. The allowance is a condition of the same transaction that stores.
  const allowance = monthlyAllowance(team, {
    free: config.freeMonthlySubmissions,
    pro: config.proMonthlySubmissions,
  });
  // 12 (files). Stored before the submission, each then waiting for its malware scan's
  // verdict with its object's ETag (docs/uploads-and-pages.md#malware-scanning); nothing
  // here waits for a scan.
  const toStore =
    files.length > 0
      ? withFilesToScan(submission, await storeFiles(form.id, submission.id, received, direct))
      : submission;
  const stored = await storePost({
    submission: toStore,
    teamId: team.teamId,
    usage: {
      month,
      allowance,
      nearLimitFrom: nearLimitFrom(allowance),
      known: context.usage,
    },
    counters: context.counters,
    spamQuota: spamQuotaAt(now, config.spamMonthlyCapPerForm),
    // The same answers from the same visitor (docs/submit.md#link-spam-and-duplicates),
    // unless the owner turned the rule off: then no mark is claimed (one item fewer).
    duplicateMark: form.markDuplicates
      ? {
          fingerprint: duplicateFingerprint(
            form.id,
            keyedVisitor(config.keyedHashSecret, visitorIdentity(request.ip, request.userAgent)),
            data,
          ),
          expiresAt: Math.floor(now.getTime() / 1000) + DUPLICATE_WINDOW_SECONDS,
        }
      : undefined,
    // An upload id is used once: of posts racing with one, the transaction stores one.
    uploadClaims:
      direct.length > 0
        ? {
            uploadIds: direct.map((file) => file.uploadId),
            expiresAt: Math.floor(now.getTime() / 1000) + UPLOAD_CLAIM_SECONDS,
          }
        : undefined,
    now,
    hints: { subject: special.subject, replyTo: special.replyTo },
    // One answer per person (docs/submit.md#one-answer-per-person): the place of the address
    // in the form's `unique` field, as a keyed hash; link spam takes none.
    personPlace: personPlaceOf(form, team.teamId, data, linkSpam),
    // Each address it holds, as a keyed hash, for erase and export by email
    // (docs/privacy.md#how-a-person-is-found): one more write each, none without one.
    emailHashes: addressesOf(data, special.replyTo).map((address) =>
      emailHash(config.keyedHashSecret, team.teamId, address),
    ),
    // A waitlist signup's sender, keyed the same way: its signup mark's key
    // (docs/privacy.md#the-signup-mark), so no worker needs the secret.
    signupHash: signupHashOf(form, submission, special, team.teamId),
    // Names the form's column catalogue lacks: usually none, and then nothing more is written.
    newColumns: newAnswerNames(Object.keys(data), context.columns, form.fields),
    // The key is claimed with the post: of twins racing with one key, one stores.
    idempotency: postKey
      ? keyClaim(
          postKey,
          {
            submissionId: submission.id,
            page: request.wantsPage === true,
            ...(request.wantsPage && view.redirect ? { location: view.redirect } : {}),
            ...(answersPending(form) ? { pending: true as const } : {}),
          },
          now,
        )
      : undefined,
  }).catch(async (error: unknown) => {
    await discardFiles(form.id, submission.id, files.length);
    throw error;
  });
  if (!stored.stored) {
    await discardFiles(form.id, submission.id, files.length);
    // Past the month's spam cap, spam is dropped like a bot: nothing stored, nothing said.
    if (stored.reason === 'spam_cap_reached') {
      return { kind: 'dropped', reason: 'spam_cap', pending: answersPending(form), view };
    }
    if (stored.reason === 'form_gone') throw formNotFound();
    if (stored.reason === 'key_used') throw keyHeldByAnother();
    if (stored.reason === 'full') {
      await recordReachedLimit(form, now);
      throw formClosed(form, plan);
    }
    if (stored.reason === 'closed') throw formClosed(form, plan);
    if (stored.reason === 'upload_used') {
      throw uploadAlreadyUsed(direct.map((file) => file.uploadId).join(', '));
    }
    throw submissionLimitReached();
  }
  // Those the logic step dropped go too: nothing else would ever use them.
  if (checkedUploads.length > 0) await releaseDirectUploads(form.id, checkedUploads);
  if (
    !stored.spam &&
    !stored.pending &&
    form.maxSubmissions !== null &&
    form.submissionCount + 1 >= form.maxSubmissions
  ) {
    await recordReachedLimit(form, now);
  }
  return {
    kind: 'stored',
    submissionId: submission.id,
    nearLimit: stored.nearLimit,
    // Link spam is decided before storing; the store says which claim made a clean post spam.
    spamRule: stored.spam ? spamRuleOf(stored.spamReason) : undefined,
    pending: answersPending(form),
    view,
  };
}

/**
 * Whether a post the form accepts is answered "check your inbox": on a form
 * with `confirmEmail`, every one, spam (stored without waiting) and dropped
 * bots included, so the answer never tells a visitor they were classed as
 * spam (docs/submit.md#confirm-by-email).
 */
function answersPending(form: FormRecord): boolean {
  return form.confirmEmail != null;
}

async function checkCaptcha(
  form: FormRecord,
  token: string | undefined,
  request: SubmitRequest,
): Promise<void> {
  if (!token) throw new ServiceError('captcha_failed', 'The captcha was not completed');
  if (!form.captchaSecretKey) {
    throw new ServiceError('captcha_failed', 'The captcha could not be checked');
  }
  const verdict = await verifyTurnstile({
    secret: form.captchaSecretKey,
    token,
    remoteIp: request.ip,
    idempotencyKey: crypto.randomUUID(),
  });
  if (verdict === 'unavailable') {
    throw new ServiceError(
      'captcha_unavailable',
      'The captcha service could not be reached; please try again',
    );
  }
  if (verdict === 'failed') throw new ServiceError('captcha_failed', 'The captcha failed');
}

/** Closes the form if its count has reached `maxSubmissions`; a failure here loses no post. */
async function recordReachedLimit(form: FormRecord, now: Date): Promise<void> {
  if (form.maxSubmissions === null) return;
  await closeFormAtLimit(form.id, now).catch((error: unknown) =>
    log.warn('could not record the reached submission limit', {
      formId: form.id,
      ...errorFields(error),
    }),
  );
}

/**
 * A submission's files before the submission itself, so a stored submission
 * never names a missing file: multipart files put, then direct uploads copied
 * from their pending keys after them. A failure removes what was written.
 * Answers each object's ETag, in `meta.files` order.
 */
async function storeFiles(
  formId: string,
  submissionId: string,
  received: readonly ReceivedFile[],
  direct: readonly DirectFile[],
): Promise<string[]> {
  try {
    const etags: string[] = [];
    if (received.length > 0) {
      const { putSubmissionFiles } = await uploads();
      etags.push(...(await putSubmissionFiles(formId, submissionId, received)));
    }
    if (direct.length > 0) {
      const { copyPendingUploads } = await pendingUploads();
      etags.push(...(await copyPendingUploads(formId, submissionId, direct, received.length)));
    }
    return etags;
  } catch (error) {
    await discardFiles(formId, submissionId, received.length + direct.length);
    throw error;
  }
}

/**
 * The submission with each file's scan state and object ETag, and how many
 * wait for a verdict (`scanPending`): docs/uploads-and-pages.md#malware-scanning.
 */
function withFilesToScan(submission: Submission, etags: readonly string[]): Submission {
  const { files, pending } = filesToScan(
    submission.meta.files ?? [],
    etags,
    config.malwareScanning,
  );
  return {
    ...submission,
    meta: { ...submission.meta, files },
    ...(pending > 0 ? { scanPending: pending } : {}),
  };
}

/** After storing: the pending objects go, so an id works once; a failure here loses no post. */
async function releaseDirectUploads(formId: string, direct: readonly DirectFile[]) {
  await pendingUploads()
    .then(({ deletePendingUploads }) =>
      deletePendingUploads(
        formId,
        direct.map((file) => file.uploadId),
      ),
    )
    .catch((error: unknown) =>
      log.warn('pending uploads of a stored submission left behind', {
        formId,
        ...errorFields(error),
      }),
    );
}

async function discardFiles(formId: string, submissionId: string, count: number): Promise<void> {
  if (count === 0) return;
  await uploads()
    .then(({ deleteSubmissionFiles }) => deleteSubmissionFiles(formId, submissionId, count))
    .catch((error: unknown) =>
      log.warn('uploads of an unstored submission left behind', {
        formId,
        submissionId,
        ...errorFields(error),
      }),
    );
}

function visitorMeta(
  form: FormRecord,
  team: Team,
  request: SubmitRequest,
  files: readonly (StoredFile & { field: string })[],
  special: SpecialFields,
): Submission['meta'] {
  return {
    // A page that counts its view says so in `_views`; a post without it (an own form, the
    // API) stays out of the conversion rate (docs/analytics.md#views).
    ...(special.views ? {} : { noView: true as const }),
    // The address itself, its keyed hash, or nothing (docs/people.md#visitor-addresses); the
    // block lists and rate limits above acted on the address as sent.
    ip: storedVisitorIp(
      request.ip,
      { dontStoreIp: form.dontStoreIp, ipStorage: team.ipStorage, teamId: team.teamId },
      () => config.keyedHashSecret,
    ),
    userAgent: request.userAgent.slice(0, USER_AGENT_MAX),
    referrer: storedReferrer(request.referer ?? '', REFERRER_MAX),
    country: request.country,
    deviceClass: request.deviceClass,
    files:
      files.length > 0
        ? files.map((file) => {
            const field = storedFileField(file.field);
            return {
              ...(field ? { field } : {}),
              name: file.name,
              mime: file.mime,
              size: file.size,
            };
          })
        : undefined,
  };
}

function completionView(
  form: FormRecord,
  plan: PlanName,
  request: SubmitRequest,
  special: SpecialFields,
): CompletionView {
  return {
    redirect: redirectTarget(form, plan, {
      redirectField: special.redirect,
      origin: request.origin,
      referer: request.referer,
    }),
    ...completionTexts(form, plan),
    design: form.design,
  };
}

/** The keyed hash of a waitlist signup's address (as the summary counts it), or undefined. */
function signupHashOf(
  form: FormRecord,
  submission: Submission,
  hints: { replyTo?: string },
  teamId: string,
): string | undefined {
  if (form.type !== 'waitlist') return undefined;
  const address = submitterAddress(submission, form, { replyTo: hints.replyTo });
  return address ? emailHash(config.keyedHashSecret, teamId, address) : undefined;
}

/** The keyed hash of the place the post's person takes on a form with `unique`, or undefined. */
function personPlaceOf(
  form: FormRecord,
  teamId: string,
  data: Record<string, string>,
  linkSpam: boolean,
): { hash: string } | undefined {
  if (linkSpam) return undefined;
  const mailbox = personMailbox(form.unique, data);
  return mailbox ? { hash: personPlaceHash(config.keyedHashSecret, teamId, mailbox) } : undefined;
}

/** The metric's rule for a spam reason the store answered ('moved' never comes from a post). */
function spamRuleOf(reason: SpamReason | undefined): SpamRule {
  return reason === 'duplicate' || reason === 'duplicate_person' ? reason : 'links';
}
