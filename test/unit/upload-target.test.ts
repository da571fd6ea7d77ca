import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { describe, expect, it } from 'vitest';
import { type UploadTarget, uploadTargetOrigin } from '#aws/upload-target.ts';

/** Configurations the stack or the local runner may give the uploads route's S3 client. */
const TARGETS: UploadTarget[] = [
  { region: 'us-east-1', bucket: 'formservice-uploads-1a2b3c4d', forcePathStyle: false },
  { region: 'eu-west-1', bucket: 'formservice-uploads-1a2b3c4d', forcePathStyle: false },
  { region: 'us-east-1', bucket: 'a.dotted.bucket', forcePathStyle: false },
  { region: 'cn-north-1', bucket: 'uploads-cn', forcePathStyle: false },
  {
    region: 'us-east-1',
    bucket: 'form-service-uploads-local',
    endpoint: 'http://127.0.0.1:4566',
    forcePathStyle: true,
  },
  {
    region: 'us-east-1',
    bucket: 'form-service-uploads-local',
    endpoint: 'http://127.0.0.1:4566',
    forcePathStyle: false,
  },
  {
    region: 'us-east-1',
    bucket: 'form-service-uploads-local',
    endpoint: 'http://localhost:4566',
    forcePathStyle: false,
  },
];

describe('the origin a browser posts direct uploads to (the hosted page’s connect-src)', () => {
  it.each(TARGETS.map((target) => [target.bucket, target.endpoint ?? target.region, target]))(
    '%s via %s is the origin of the presigned POST the SDK signs',
    async (_bucket, _where, target) => {
      const client = new S3Client({
        region: target.region,
        endpoint: target.endpoint,
        forcePathStyle: target.forcePathStyle,
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const post = await createPresignedPost(client, { Bucket: target.bucket, Key: 'pending/x' });
      expect(uploadTargetOrigin(target)).toBe(new URL(post.url).origin);
    },
  );
});
