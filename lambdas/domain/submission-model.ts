import type { Confirmation } from './confirmation-state.ts';
import type { ScanStatus } from './file-scans.ts';

/** The submission as stored and as the API shows it (docs/submissions.md#submissions). */

export type DeviceClass = 'mobile' | 'desktop' | 'tablet' | 'bot';

export interface StoredFile {
  /** The answer name it was sent under, when it had one (absent on files stored before). */
  field?: string;
  name: string;
  mime: string;
  /** Bytes. */
  size: number;
  /**
   * Its malware scan (docs/uploads-and-pages.md#malware-scanning): `pending`
   * until its verdict; absent on files stored before scanning, which read as
   * `not_scanned`.
   */
  scan?: ScanStatus;
  /** The threats found, for `infected`. */
  threats?: string[];
  /** When its verdict was recorded. */
  scannedAt?: string;
  /**
   * Stored only: the object's ETag as S3 answered the submit path, without
   * quotes. A scan result counts only for this very object (its key and ETag).
   */
  etag?: string;
}

export interface SubmissionMeta {
  /** The address, or `hash:` and 16 hex digits on a team that keeps keyed hashes; left out when the form has `dontStoreIp` (docs/people.md#visitor-addresses). */
  ip?: string;
  userAgent: string;
  /** Page the form was sent from, or "". */
  referrer: string;
  /** ISO 3166-1 alpha-2, upper case, when known. */
  country?: string;
  deviceClass?: DeviceClass;
  /** Only when files were attached; `files[i]` is stored at `uploadKey(formId, id, i)`. */
  files?: StoredFile[];
  /** The page the form was sent from, when the form has pages (docs/forms.md#pages). */
  endedOn?: string;
  /**
   * Set on a post from a page that counts no views (without `_views`: not the
   * hosted page, the embed or the pasted form with its view image; an own
   * form, the API), so the summary's conversion leaves it out
   * (docs/analytics.md#views). Absent on submissions stored before it.
   */
  noView?: true;
}

/**
 * Why a submission is in the spam folder (docs/submissions.md#spam-reasons):
 * the link rule, the duplicate rule, the owner's move, or a person who has
 * answered already (the form's `unique`: docs/forms.md#one-answer-per-person).
 */
export const SPAM_REASONS = ['links', 'duplicate', 'moved', 'duplicate_person'] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];

export interface Submission {
  /** UUID v7: time-ordered, so the table's sort key sorts newest last. */
  id: string;
  formId: string;
  /** Answers by field name; `_invalid` is the only underscore name ever stored. */
  data: Record<string, string>;
  meta: SubmissionMeta;
  read: boolean;
  starred: boolean;
  isSpam: boolean;
  isTest: boolean;
  createdAt: string;
  /** Only while `isSpam`: why it is spam. Spam stored before reasons were kept has none. */
  spamReason?: SpamReason;
  /**
   * Stored only: when the owner moved it to spam (a flag change), so spam is
   * kept `spamRetentionDays` from that moment, not from its receipt. Spam
   * stored as spam has none (`createdAt` is that moment). Never shown: the
   * API answers `submissionView`.
   */
  spamAt?: string;
  /**
   * Stored only: when it was first marked read (the summary's minutes to
   * first read). Never shown, like `spamAt`.
   */
  firstReadAt?: string;
  /**
   * Stored only: how many of its files still wait for their scan's verdict;
   * the verdict that brings it to 0 announces `submission.files_scanned`
   * (docs/delivery.md#files-scanned). Absent when none was ever pending.
   */
  scanPending?: number;
  /**
   * Confirm by email (docs/submit.md#confirm-by-email): `pending` until the
   * visitor confirms, then `confirmed`. Absent (shown as null) on a
   * submission of a form without confirmEmail when it was stored.
   */
  confirmation?: Confirmation | null;
  /**
   * Stored only: on the submission that holds a person's place on a form
   * with `unique`, the keyed hash of that place (docs/privacy.md#one-answer-per-person),
   * so its deletion frees it. Never shown, like `spamAt`.
   */
  personHash?: string;
}

/** A file as the API shows it: its scan state always, its ETag never. */
export type FileView = Omit<StoredFile, 'etag'> & { scan: ScanStatus };

export type SubmissionView = Omit<
  Submission,
  'spamAt' | 'firstReadAt' | 'scanPending' | 'personHash' | 'meta' | 'confirmation'
> & {
  meta: Omit<SubmissionMeta, 'files'> & { files?: FileView[] };
  confirmation: Confirmation | null;
};

/** The submission as the API shows it: without what is stored only. */
export function submissionView(submission: Submission): SubmissionView {
  const {
    spamAt: _stored,
    firstReadAt: _read,
    scanPending: _pending,
    confirmation,
    personHash: _place,
    meta,
    ...shown
  } = submission;
  const { files, ...rest } = meta;
  return {
    ...shown,
    meta: files ? { ...rest, files: files.map(fileView) } : rest,
    confirmation: confirmation ?? null,
  };
}

export function fileView(file: StoredFile): FileView {
  const { etag: _object, ...shown } = file;
  return { ...shown, scan: file.scan ?? 'not_scanned' };
}

/** One answer problem inside `data._invalid` (reason codes: docs/submit.md#field-checks). */
export interface AnswerProblem {
  fieldId: string;
  reason: AnswerReason;
}

export const ANSWER_REASONS = [
  'required',
  'invalid_email',
  'invalid_number',
  'too_small',
  'too_large',
  'too_short',
  'too_long',
  'pattern_mismatch',
  'invalid_option',
  'invalid_date',
  'invalid_url',
  'invalid_tel',
  'invalid_rating',
] as const;
export type AnswerReason = (typeof ANSWER_REASONS)[number];
