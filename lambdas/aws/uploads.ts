import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '#config';
import { settleAll } from '#domain/settle-all.ts';
import type { StoredFile, Submission } from '#domain/submission-model.ts';
import { attachmentDisposition, formUploadsPrefix, uploadKey } from '#domain/uploads.ts';
import { s3 } from './s3-client.ts';

/** Deletes every object under the form's prefix; returns how many. */
export async function deleteFormUploads(formId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: config.uploadsBucket,
        Prefix: formUploadsPrefix(formId),
        MaxKeys: 1000,
      }),
    );
    const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
    if (keys.length === 0) return deleted;
    const result = await s3.send(
      new DeleteObjectsCommand({
        Bucket: config.uploadsBucket,
        Delete: { Objects: keys, Quiet: true },
      }),
    );
    if (result.Errors?.length)
      throw new Error(`could not delete ${result.Errors.length} uploads of form ${formId}`);
    deleted += keys.length;
  }
}

export interface UploadedFile {
  name: string;
  mime: string;
  content: Buffer;
}

/**
 * Stores a submission's files before the submission itself, so a stored
 * submission never names a missing file. Content type as declared, and the
 * object itself says "attachment" (the download link says so again), so no
 * way of fetching it from our bucket renders it inline. Every put has ended
 * when this throws, so the caller's clean-up races none. Answers each
 * object's ETag, in order: a scan result counts only for that very object
 * (docs/uploads-and-pages.md#malware-scanning).
 */
export async function putSubmissionFiles(
  formId: string,
  submissionId: string,
  files: readonly UploadedFile[],
): Promise<string[]> {
  const puts = await settleAll(
    files.map((file, index) =>
      s3.send(
        new PutObjectCommand({
          Bucket: config.uploadsBucket,
          Key: uploadKey(formId, submissionId, index),
          Body: file.content,
          ContentType: file.mime,
          ContentDisposition: attachmentDisposition(file.name),
          ContentLength: file.content.length,
        }),
      ),
    ),
  );
  return puts.map((put) => put.ETag ?? '');
}

/** Removes the files of a submission that was not stored after all. */
export async function deleteSubmissionFiles(
  formId: string,
  submissionId: string,
  count: number,
): Promise<void> {
  await deleteObjects(Array.from({ length: count }, (_, i) => uploadKey(formId, submissionId, i)));
}

/** Removes the files of deleted submissions (those without files cost nothing). */
export async function deleteFilesOf(
  submissions: readonly Pick<Submission, 'formId' | 'id' | 'meta'>[],
): Promise<void> {
  await deleteObjects(
    submissions.flatMap((submission) =>
      (submission.meta.files ?? []).map((_, i) => uploadKey(submission.formId, submission.id, i)),
    ),
  );
}

/** Removes one stored file (an infected one: docs/uploads-and-pages.md#malware-scanning). */
export async function deleteUpload(
  formId: string,
  submissionId: string,
  index: number,
): Promise<void> {
  await deleteObjects([uploadKey(formId, submissionId, index)]);
}

/**
 * Whether the object of a stored file is in the bucket, by listing its key
 * (ListBucket: the bucket policy holds back reads of unscanned files, not
 * listings).
 */
export async function uploadExists(
  formId: string,
  submissionId: string,
  index: number,
): Promise<boolean> {
  const key = uploadKey(formId, submissionId, index);
  const page = await s3.send(
    new ListObjectsV2Command({ Bucket: config.uploadsBucket, Prefix: key, MaxKeys: 1 }),
  );
  return page.Contents?.[0]?.Key === key;
}

/** DeleteObjects takes at most 1,000 keys a call. */
async function deleteObjects(keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const result = await s3.send(
      new DeleteObjectsCommand({
        Bucket: config.uploadsBucket,
        Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
      }),
    );
    if (result.Errors?.length) throw new Error(`could not delete ${result.Errors.length} uploads`);
  }
}

/** How long a download link works: 15 minutes (docs/submissions.md#file-links). */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

/**
 * A presigned GET of one stored file that downloads as an attachment under
 * its original name, whatever its type: our bucket never renders a visitor's
 * file inline.
 */
export function downloadLink(
  formId: string,
  submissionId: string,
  index: number,
  file: StoredFile,
): Promise<string> {
  return getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: config.uploadsBucket,
      Key: uploadKey(formId, submissionId, index),
      ResponseContentDisposition: attachmentDisposition(file.name),
      ResponseContentType: file.mime,
    }),
    { expiresIn: DOWNLOAD_LINK_SECONDS },
  );
}
