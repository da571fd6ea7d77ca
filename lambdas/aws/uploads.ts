import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { config } from '../config.ts';
import { formUploadsPrefix } from '../domain/uploads.ts';

// Created once per container; AWS_ENDPOINT_URL_S3 points it at the local emulator.
const s3 = new S3Client({ forcePathStyle: config.s3ForcePathStyle });

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
