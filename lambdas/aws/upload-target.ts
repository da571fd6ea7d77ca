import { config } from '#config';

/**
 * Where a browser sends a direct upload: the origin of the `url` of a
 * presigned POST (upload-policies.ts), derived from the same configuration
 * as the S3 client that signs it (the bucket, the region, the
 * `AWS_ENDPOINT_URL_S3` override, path-style addressing) without loading
 * the SDK. The hosted page names it in its CSP `connect-src`.
 */
export interface UploadTarget {
  bucket: string;
  region: string;
  /** The SDK's endpoint override (`AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`), if any. */
  endpoint?: string;
  forcePathStyle: boolean;
}

/** S3's rule for names that may lead a host name (else the SDK addresses the bucket by path). */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

export function uploadTargetOrigin(target: UploadTarget): string {
  const byPath = target.forcePathStyle || !VIRTUAL_HOSTABLE.test(target.bucket);
  if (target.endpoint) {
    const endpoint = new URL(target.endpoint);
    if (byPath || IP_ADDRESS.test(endpoint.hostname)) return endpoint.origin;
    return `${endpoint.protocol}//${target.bucket}.${endpoint.host}`;
  }
  const suffix = target.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  const host = `s3.${target.region}.${suffix}`;
  return `https://${byPath ? host : `${target.bucket}.${host}`}`;
}

/** This deployment's upload origin, from the function's environment. */
export function uploadsPostOrigin(): string {
  return uploadTargetOrigin({
    bucket: config.uploadsBucket,
    region: process.env.AWS_REGION || 'us-east-1',
    endpoint: process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL || undefined,
    forcePathStyle: config.s3ForcePathStyle,
  });
}
