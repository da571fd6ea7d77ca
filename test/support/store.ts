import { inject } from 'vitest';

/**
 * The service's own store modules, pointed at the test run's local table.
 * Each test file runs in its own worker, so setting the environment here
 * touches no other file. Used where a behaviour is only observable inside
 * (e.g. the key lookup of the submit path before that route exists).
 */
export async function localStore() {
  const info = inject('localStack');
  Object.assign(process.env, {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: info.endpoints.s3,
    S3_FORCE_PATH_STYLE: 'true',
    TABLE_NAME: info.tableName,
    UPLOADS_BUCKET: info.uploadsBucket,
    BASE_URL: info.baseUrl,
    TURNSTILE_VERIFY_URL: `${info.endpoints.turnstile}/turnstile/v0/siteverify`,
  });
  return {
    forms: await import('#store/forms.ts'),
    counters: await import('#store/form-counters.ts'),
    submissions: await import('#store/submissions.ts'),
    usage: await import('#store/usage.ts'),
    documents: (await import('#store/client.ts')).documents,
  };
}
