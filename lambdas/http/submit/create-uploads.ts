import { ServiceError } from '#domain/errors.ts';
import { CORS_HEADERS } from '#http/cors.ts';
import { withRequestId } from '#http/request-id.ts';
import { errorBody, json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import { submitRequestOf } from './submit-request.ts';
import { grantUploads } from './upload-requests.ts';

/**
 * `POST /s/{key}/uploads`: presigned S3 POSTs for files too large for the
 * submit endpoint's request (up to the form's `uploadLimitMb`). The browser
 * posts each file to S3, then the form to `/s/{key}` with the ids in
 * `_uploads`. Public, with the submit endpoint's CORS and error envelope
 * (JSON only: a script calls this route, never a plain HTML form).
 */
export const handler = withRequestId(async (event) => {
  const request = submitRequestOf(event);
  try {
    const uploads = await grantUploads(request, new Date());
    return json(200, { ok: true, uploads }, CORS_HEADERS);
  } catch (error) {
    if (error instanceof ServiceError) {
      return json(error.status, errorBody(error.code, error.message, error.issues), {
        ...CORS_HEADERS,
        ...error.headers,
      });
    }
    log.error('unexpected error', errorFields(error));
    return json(500, errorBody('internal_error', 'Something went wrong on our side'), CORS_HEADERS);
  }
});
