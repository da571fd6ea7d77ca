import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { config } from '#config';
import { encodeMetadata, pendingUploadKey, UPLOAD_POLICY_SECONDS } from '#domain/direct-uploads.ts';
import { s3 } from './s3-client.ts';

export interface UploadPolicyRequest {
  formId: string;
  uploadId: string;
  /** Cleaned file name, kept in the object's metadata for `meta.files`. */
  name: string;
  /** The declared type, already checked: the object's Content-Type must be exactly this. */
  mime: string;
  /** The form field the file answers ("" for none). */
  field: string;
  /** Largest object S3 accepts under this policy (the form's `uploadLimitMb`). */
  maxBytes: number;
}

export interface UploadPolicy {
  url: string;
  /** Every form field the browser posts before the file, exactly as given. */
  fields: Record<string, string>;
}

/**
 * A presigned S3 POST for one pending object: the key is chosen here, the
 * size is bounded by `content-length-range`, and every field (Content-Type,
 * the name and field metadata) is an exact-match condition of the policy.
 * Signing is local (no S3 call); S3 enforces the policy when the file arrives.
 */
export function uploadPolicy(request: UploadPolicyRequest): Promise<UploadPolicy> {
  return createPresignedPost(s3, {
    Bucket: config.uploadsBucket,
    Key: pendingUploadKey(request.formId, request.uploadId),
    Conditions: [['content-length-range', 1, request.maxBytes]],
    Fields: {
      'Content-Type': request.mime,
      'x-amz-meta-name': encodeMetadata(request.name),
      'x-amz-meta-field': encodeMetadata(request.field),
    },
    Expires: UPLOAD_POLICY_SECONDS,
  });
}
