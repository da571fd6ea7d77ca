import {
  DIRECT_UPLOAD_TOTAL_BYTES,
  MAX_DIRECT_FILES,
  UPLOADS_FIELD,
} from '#domain/direct-uploads.ts';
import { ServiceError } from '#domain/errors.ts';
import { uploadRequestSchema } from '#domain/upload-request.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { errorJson, json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import { SHARED_STEP_ERRORS } from './step-errors.ts';
import { submitRequestOf } from './submit-request.ts';
import { grantUploads } from './upload-requests.ts';

/**
 * `POST /s/{key}/uploads`: presigned S3 POSTs for files too large for the
 * submit endpoint's request (up to the form's `uploadLimitMb`). The browser
 * posts each file to S3, then the form to `/s/{key}` with the ids in
 * `_uploads`. Public, with the submit endpoint's CORS and error envelope
 * (JSON only: a script calls this route, never a plain HTML form).
 */
export const contract = defineContract({
  tag: 'Submit',
  description: `Public, no credentials; the submit endpoint's steps that apply before a post exists run in its order (form, block lists, allowed websites, rate limits counted in the same windows, files, closed). Up to ${MAX_DIRECT_FILES} files a post, each up to the form's \`uploadLimitMb\`, ${DIRECT_UPLOAD_TOTAL_BYTES / 1024 / 1024} MB together. POST each file to its \`url\` as multipart/form-data with every entry of \`fields\` and the file last (named \`file\`) within 15 minutes, then post the form to \`/s/{key}\` with the ids in \`${UPLOADS_FIELD}\`. A blocked visitor is answered like anyone else.`,
  body: uploadRequestSchema,
  answers: [
    {
      status: 200,
      description: 'One presigned S3 POST per file, in the order sent.',
      body: 'UploadGrants',
    },
  ],
  errors: [...SHARED_STEP_ERRORS],
  cors: true,
});

export const handler = publicRoute(contract, async (event) => {
  const request = submitRequestOf(event);
  try {
    const uploads = await grantUploads(request, new Date());
    return json(200, { ok: true, uploads });
  } catch (error) {
    if (error instanceof ServiceError) {
      return errorJson(error);
    }
    log.error('unexpected error', errorFields(error));
    return errorJson(new ServiceError('internal_error', 'Something went wrong on our side'));
  }
});
