import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
} from '@aws-sdk/client-s3';
import { config } from '#config';
import { decodeMetadata, pendingUploadKey, uploadAlreadyUsed } from '#domain/direct-uploads.ts';
import { settleAll } from '#domain/settle-all.ts';
import { attachmentDisposition, uploadKey } from '#domain/uploads.ts';
import { s3 } from './s3-client.ts';

/** Bytes read from the start of a pending object to recognise programs by content. */
const SNIFF_BYTES = 4;

export interface PendingObject {
  /** The object's real size, whatever was declared. */
  size: number;
  /** Content-Type as stored (the policy fixed it to the declared type). */
  mime: string;
  /** From `x-amz-meta-name`; undefined when the object carries none. */
  name: string | undefined;
  field: string;
  lastModified: Date | undefined;
  firstBytes: Uint8Array;
}

/**
 * The pending object of an upload of this form, or undefined when there is
 * none under the form's pending prefix: never uploaded, already moved into a
 * submission, another form's, or expired. A HeadObject for the real size and
 * metadata and a ranged GET of the first bytes, at once.
 */
export async function readPendingUpload(
  formId: string,
  uploadId: string,
): Promise<PendingObject | undefined> {
  const Key = pendingUploadKey(formId, uploadId);
  try {
    const [head, start] = await Promise.all([
      s3.send(new HeadObjectCommand({ Bucket: config.uploadsBucket, Key })),
      s3.send(
        new GetObjectCommand({
          Bucket: config.uploadsBucket,
          Key,
          Range: `bytes=0-${SNIFF_BYTES - 1}`,
        }),
      ),
    ]);
    const bytes = await start.Body!.transformToByteArray();
    return {
      size: head.ContentLength ?? 0,
      mime: (head.ContentType ?? 'application/octet-stream').toLowerCase(),
      name: decodeMetadata(head.Metadata?.name),
      field: decodeMetadata(head.Metadata?.field) ?? '',
      lastModified: head.LastModified,
      firstBytes: bytes.subarray(0, SNIFF_BYTES),
    };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  if (error instanceof NotFound || error instanceof NoSuchKey) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return status === 404;
}

export interface ClaimedUpload {
  uploadId: string;
  name: string;
  mime: string;
}

/**
 * Copies checked pending objects to the submission's keys (file `firstIndex`
 * onward, after any multipart files), with the same Content-Type and
 * attachment disposition as a multipart file, so downloads and purgers treat
 * them alike. The pending objects stay until `deletePendingUploads`. One
 * gone since it was checked was used by a submission stored meanwhile: 400
 * `upload_already_used` (the storing transaction's claim decides which
 * submission gets an upload; this only answers a late copy in words). Every
 * copy has ended when this throws, so the caller's clean-up races none.
 * Answers each copy's ETag, in order.
 */
export async function copyPendingUploads(
  formId: string,
  submissionId: string,
  uploads: readonly ClaimedUpload[],
  firstIndex: number,
): Promise<string[]> {
  return settleAll(
    uploads.map(async (upload, i) => {
      try {
        const copied = await s3.send(
          new CopyObjectCommand({
            Bucket: config.uploadsBucket,
            CopySource: `${config.uploadsBucket}/${pendingUploadKey(formId, upload.uploadId)}`,
            Key: uploadKey(formId, submissionId, firstIndex + i),
            MetadataDirective: 'REPLACE',
            ContentType: upload.mime,
            ContentDisposition: attachmentDisposition(upload.name),
          }),
        );
        return copied.CopyObjectResult?.ETag ?? '';
      } catch (error) {
        if (isMissing(error)) throw uploadAlreadyUsed(upload.uploadId);
        throw error;
      }
    }),
  );
}

/** Removes pending objects once their submission is stored: an id works once. */
export async function deletePendingUploads(formId: string, uploadIds: readonly string[]) {
  if (uploadIds.length === 0) return;
  const result = await s3.send(
    new DeleteObjectsCommand({
      Bucket: config.uploadsBucket,
      Delete: {
        Objects: uploadIds.map((id) => ({ Key: pendingUploadKey(formId, id) })),
        Quiet: true,
      },
    }),
  );
  if (result.Errors?.length) {
    throw new Error(`could not delete ${result.Errors.length} pending uploads`);
  }
}
