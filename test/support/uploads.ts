import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { stack } from './api.ts';

/** A client of the test run's S3 emulator. */
export function s3(): S3Client {
  const info = stack();
  return new S3Client({
    region: info.region,
    endpoint: info.endpoints.s3,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    forcePathStyle: true,
  });
}

/** Every object key stored under the form's uploads prefix. */
export async function uploadsOf(formId: string): Promise<string[]> {
  const { Contents } = await s3().send(
    new ListObjectsV2Command({ Bucket: stack().uploadsBucket, Prefix: `forms/${formId}/` }),
  );
  return (Contents ?? []).map((object) => object.Key!);
}
