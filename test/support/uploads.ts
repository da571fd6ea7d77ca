import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { api, stack } from './api.ts';
import { eventually } from './poll.ts';

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

/**
 * A file's signed link once its malware scan has its verdict
 * (docs/uploads-and-pages.md#malware-scanning): the link route answers 409
 * `file_not_scanned` while the local scanner emulator has not spoken (300 ms
 * and the worker), then the link, or the refusal of an unclean file.
 */
export async function linkOnceScanned<
  T = { url: string; name: string; mime: string; expiresAt: string },
>(
  form: { id: string; apiKey: string },
  submissionId: string,
  index: number,
  options: { timeoutMs?: number } = {},
) {
  return eventually(
    () =>
      api<T>('GET', `/v1/forms/${form.id}/submissions/${submissionId}/files/${index}`, {
        key: form.apiKey,
      }),
    (response) =>
      !(
        response.status === 409 &&
        (response.body as { error?: string }).error === 'file_not_scanned'
      ),
    { timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 200 },
  );
}

/**
 * The local scanner emulator's setting for one form (lib/local/emulators/malware-scanner.ts):
 * its delay before a verdict, its silence (`drop`), or its event sent twice (`duplicate`).
 */
export async function scannerSetting(
  formId: string,
  setting: { delayMs?: number; drop?: boolean; duplicate?: boolean },
): Promise<void> {
  const response = await fetch(`${stack().endpoints.s3}/_scanner/forms/${formId}`, {
    method: 'PUT',
    body: JSON.stringify(setting),
  });
  if (response.status !== 204) throw new Error(`scanner setting: ${response.status}`);
}

/** Files as they were sent (field, name, type, size), without their malware scan's state. */
export function asSent<F extends object>(
  files: readonly F[] | undefined,
): Omit<F, 'scan' | 'etag' | 'scannedAt' | 'threats'>[] | undefined {
  return files?.map((file) => {
    const {
      scan: _scan,
      etag: _etag,
      scannedAt: _at,
      threats: _threats,
      ...sent
    } = file as F & {
      scan?: unknown;
      etag?: unknown;
      scannedAt?: unknown;
      threats?: unknown;
    };
    return sent;
  });
}
