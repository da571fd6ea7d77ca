import { ServiceError } from './errors.ts';
import { MAX_FILES_PER_SUBMISSION } from './submit-rules.ts';

/**
 * Direct uploads (issue 16): a browser asks `POST /s/{key}/uploads` for one
 * presigned S3 POST per file, posts each file straight to S3 under a pending
 * key, then posts the form with the upload ids in `_uploads`. The submit
 * endpoint checks each pending object and moves it under the submission.
 * Plain rules only; the S3 calls are in lambdas/aws/.
 */

/** Every pending object lives under this prefix; a bucket lifecycle rule expires it after a day. */
export const PENDING_UPLOADS_PREFIX = 'pending/';

/** How long the presigned POST policy of one file is valid. */
export const UPLOAD_POLICY_SECONDS = 15 * 60;

/** How long after its id was issued an upload may still be named by a post (the lifecycle's day). */
export const PENDING_UPLOAD_SECONDS = 24 * 60 * 60;

/**
 * How long after its policy expired an object may still arrive. S3 checks
 * the policy when a POST starts; a 100 MB file on a slow link can finish
 * much later, and whether `LastModified` marks the start or the end of a
 * POST is not checked here: an hour covers either (and clock skew). The
 * check matters where no policy is enforced (the local emulator).
 */
const ARRIVAL_MARGIN_MS = 60 * 60_000;

/** Files one post may name: the multipart limit, counting multipart and direct files together. */
export const MAX_DIRECT_FILES = MAX_FILES_PER_SUBMISSION;

/** All files of one post together (each one stays within the form's `uploadLimitMb`). */
export const DIRECT_UPLOAD_TOTAL_BYTES = 100 * 1024 * 1024;

/** The special field that names a post's direct uploads. */
export const UPLOADS_FIELD = '_uploads';

/** Where the pending object of an upload is written: the form's id is part of the key. */
export function pendingUploadKey(formId: string, uploadId: string): string {
  return `${PENDING_UPLOADS_PREFIX}${formId}/${uploadId}`;
}

/** Upload ids are UUIDv7: 74 random bits, and the time of issue in the first 48 bits. */
const UPLOAD_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUploadId(value: string): boolean {
  return UPLOAD_ID_PATTERN.test(value);
}

/** When an upload id was issued (Unix ms), read from the UUIDv7 itself: no record needed. */
export function uploadIssuedAt(uploadId: string): number {
  return Number.parseInt(uploadId.replace(/-/g, '').slice(0, 12), 16);
}

/**
 * The ids a post names in `_uploads`: every value of the field (repeated
 * fields and JSON arrays arrive as several values), each split on commas,
 * trimmed, empty parts and repeats dropped, in order.
 */
export function uploadIdsOf(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const ids = pairs
    .filter(([name]) => name === UPLOADS_FIELD)
    .flatMap(([, value]) => value.split(','))
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
  return [...new Set(ids)];
}

/**
 * Why a pending object may not become a submission's file on time grounds,
 * or undefined: its id is older than a pending object lives (`expired`), or
 * the object arrived after its policy had expired (`late`: S3 refuses such a
 * POST itself; the check also holds where the policy is not enforced).
 */
export function pendingUploadTimeProblem(
  uploadId: string,
  lastModified: Date | undefined,
  now: Date,
): 'expired' | 'late' | undefined {
  const issuedAt = uploadIssuedAt(uploadId);
  if (now.getTime() - issuedAt > PENDING_UPLOAD_SECONDS * 1000) return 'expired';
  if (
    lastModified !== undefined &&
    lastModified.getTime() > issuedAt + UPLOAD_POLICY_SECONDS * 1000 + ARRIVAL_MARGIN_MS
  ) {
    return 'late';
  }
  return undefined;
}

/**
 * Object metadata travels as ASCII: names and fields are percent-encoded in
 * the policy (`x-amz-meta-name`, `x-amz-meta-field`) and decoded at submit.
 * Text that is not well formed (a lone surrogate) has no encoding: U+FFFD
 * stands for it.
 */
export function encodeMetadata(value: string): string {
  return encodeURIComponent(value.toWellFormed());
}

/**
 * S3 keeps at most 2 KB of user metadata: a name whose encoding would pass
 * this many bytes loses code points from its end, its extension kept.
 */
export const MAX_METADATA_NAME_BYTES = 1024;

export function nameForMetadata(name: string): string {
  if (encodeMetadata(name).length <= MAX_METADATA_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const base = [...name.slice(0, name.length - extension.length)];
  while (
    base.length > 0 &&
    encodeMetadata(base.join('') + extension).length > MAX_METADATA_NAME_BYTES
  )
    base.pop();
  return base.join('') + extension;
}

export function decodeMetadata(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** A direct upload named by a post after another stored submission used it. */
export const uploadAlreadyUsed = (uploadId: string) =>
  new ServiceError(
    'upload_already_used',
    `Upload ${uploadId} was already used by another submission (an upload is used once): upload the file again`,
  );
