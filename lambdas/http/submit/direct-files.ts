import {
  DIRECT_UPLOAD_TOTAL_BYTES,
  isUploadId,
  MAX_DIRECT_FILES,
  pendingUploadTimeProblem,
  uploadAlreadyUsed,
} from '#domain/direct-uploads.ts';
import { ServiceError } from '#domain/errors.ts';
import type { FormRecord } from '#domain/form-model.ts';
import {
  cleanFileName,
  filesTooLarge,
  fileTooLarge,
  fileTypeNotAllowed,
  refusedFileReason,
  tooManyFiles,
  uploadsDisabled,
} from './file-rules.ts';

/** A pending upload that passed every check: what `meta.files` and the field checks need. */
export interface DirectFile {
  uploadId: string;
  field: string;
  name: string;
  mime: string;
  size: number;
}

/** Each form's largest file: its `uploadLimitMb` (a direct upload has no request-size cap). */
export function directFileLimitOf(form: Pick<FormRecord, 'uploadLimitMb'>): number {
  return form.uploadLimitMb * 1024 * 1024;
}

const uploadNotFound = (uploadId: string) =>
  new ServiceError(
    'upload_not_found',
    `Upload ${uploadId} is not waiting for this form: it was never uploaded, was already used by a submission, or belongs to another form`,
  );

const uploadExpired = (uploadId: string, why: 'expired' | 'late') =>
  new ServiceError(
    'upload_expired',
    why === 'expired'
      ? `Upload ${uploadId} has expired: uploads must be submitted within a day`
      : `Upload ${uploadId} arrived after its upload link had expired`,
  );

/**
 * Step 7 for the uploads a post names in `_uploads`: the form takes files,
 * the post stays within the file count, and each pending object exists
 * under this form, is on time, is within `uploadLimitMb` by its real size,
 * and is not a program by its first bytes. The first problem refuses the
 * post; nothing is moved yet (the pending objects stay for a retry).
 */
export async function checkDirectUploads(
  form: FormRecord,
  uploadsAllowed: boolean,
  uploadIds: readonly string[],
  multipartFiles: number,
  now: Date,
): Promise<DirectFile[]> {
  if (!uploadsAllowed) throw uploadsDisabled();
  if (multipartFiles + uploadIds.length > MAX_DIRECT_FILES) throw tooManyFiles(MAX_DIRECT_FILES);
  const malformed = uploadIds.find((id) => !isUploadId(id));
  if (malformed !== undefined) throw uploadNotFound(malformed.slice(0, 64));
  const { readPendingUpload } = await import('#aws/pending-uploads.ts');
  const objects = await Promise.all(uploadIds.map((id) => readPendingUpload(form.id, id)));
  const limit = directFileLimitOf(form);
  const files: DirectFile[] = [];
  let total = 0;
  for (const [i, uploadId] of uploadIds.entries()) {
    const object = objects[i];
    if (!object) {
      // Gone from pending: used by a stored submission (its claim stands), or never there.
      const { uploadClaimed } = await import('#store/upload-claims.ts');
      throw (await uploadClaimed(form.id, uploadId))
        ? uploadAlreadyUsed(uploadId)
        : uploadNotFound(uploadId);
    }
    const late = pendingUploadTimeProblem(uploadId, object.lastModified, now);
    if (late) throw uploadExpired(uploadId, late);
    const name = cleanFileName(object.name ?? 'file');
    if (object.size > limit) throw fileTooLarge(name, limit);
    const reason = refusedFileReason(name, object.mime, object.firstBytes);
    if (reason) throw fileTypeNotAllowed(name, reason);
    total += object.size;
    if (total > DIRECT_UPLOAD_TOTAL_BYTES) throw filesTooLarge(DIRECT_UPLOAD_TOTAL_BYTES);
    files.push({ uploadId, field: object.field, name, mime: object.mime, size: object.size });
  }
  return files;
}
