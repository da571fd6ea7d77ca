import { randomBytes, randomUUIDv7 } from 'node:crypto';
import {
  DIRECT_UPLOAD_TOTAL_BYTES,
  MAX_DIRECT_FILES,
  nameForMetadata,
  UPLOAD_POLICY_SECONDS,
} from '#domain/direct-uploads.ts';
import { ServiceError } from '#domain/errors.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { isFormKey } from '#domain/ids.ts';
import {
  BODY_LIMIT_BYTES,
  closedReasonAt,
  formClosed,
  uploadsEnabled,
  usageMonth,
} from '#domain/submit-rules.ts';
import { uploadRequestSchema } from '#domain/upload-request.ts';
import { blockedBy, originAllowed } from '#domain/visitor.ts';
import { parseWellFormedJson } from '#domain/well-formed-json.ts';
import { parse } from '#http/parse.ts';
import { findFormKey } from '#store/forms.ts';
import { readSubmitContext } from '#store/submit-context.ts';
import { directFileLimitOf } from './direct-files.ts';
import {
  cleanFileName,
  filesTooLarge,
  fileTooLarge,
  fileTypeNotAllowed,
  refusedFileReason,
  storedMime,
  tooManyFiles,
  uploadsDisabled,
} from './file-rules.ts';
import type { SubmitRequest } from './pipeline.ts';
import { enforceRateLimits } from './rate-limits.ts';

export interface GrantedUpload {
  uploadId: string;
  /** Where the browser POSTs multipart/form-data: every field of `fields`, then `file` last. */
  url: string;
  fields: Record<string, string>;
  /** When the policy stops working (ISO 8601). */
  expiresAt: string;
}

const formNotFound = () => new ServiceError('not_found', 'No form has this address');

/**
 * `POST /s/{key}/uploads`: the submit steps that make sense before a post
 * exists, in the submit order (docs/uploads-and-pages.md#direct-uploads: form, block
 * lists, allowed websites, rate limits, the request, files, closed), then one presigned POST per file. A blocked
 * visitor is answered like the submit endpoint answers it (200 whatever
 * follows), with policies of the usual shape whose signature is random:
 * S3 refuses them, and its post is dropped quietly at submit.
 */
export async function grantUploads(request: SubmitRequest, now: Date): Promise<GrantedUpload[]> {
  // 1. The form by key.
  if (!isFormKey(request.key)) throw formNotFound();
  const mapping = await findFormKey(request.key);
  if (!mapping) throw formNotFound();
  const context = await readSubmitContext(mapping.formId, mapping.teamId, usageMonth(now));
  if (!context) throw formNotFound();
  const { form, team } = context;

  // 2. Block lists: an answer of the same shape as anyone's, whose policies
  // carry a signature S3 refuses, so a blocked visitor learns nothing and
  // can write nothing.
  if (blockedBy(form, request.ip, request.country)) {
    const files = readFiles(request, true);
    return (await sign(form, files ?? [], now)).map(unsigned);
  }
  // 3. Allowed websites. 4. Rate limits (the submit endpoint's windows).
  if (!originAllowed(form.allowedOrigins, request.origin, request.referer)) {
    throw new ServiceError('origin_not_allowed', 'This website may not post to this form');
  }
  await enforceRateLimits(form.id, request.ip, now);

  // 5. The request. 7. The files, as a multipart post's would be checked.
  const files = readFiles(request, false)!;
  if (!uploadsEnabled(form, team.plan)) throw uploadsDisabled();
  if (files.length > MAX_DIRECT_FILES) throw tooManyFiles(MAX_DIRECT_FILES);
  const limit = directFileLimitOf(form);
  let total = 0;
  for (const file of files) {
    const reason = refusedFileReason(file.name, file.mime);
    if (reason) throw fileTypeNotAllowed(file.name, reason);
    if (file.size > limit) throw fileTooLarge(file.name, limit);
    total += file.size;
  }
  if (total > DIRECT_UPLOAD_TOTAL_BYTES) throw filesTooLarge(DIRECT_UPLOAD_TOTAL_BYTES);

  // 8. Closed forms.
  if (closedReasonAt(form, now)) throw formClosed(form, team.plan);

  return sign(form, files, now);
}

/** The grant with its signature replaced by random hex of the same length. */
function unsigned(grant: GrantedUpload): GrantedUpload {
  const signature = grant.fields['X-Amz-Signature'] ?? '';
  const random = randomBytes(Math.ceil(signature.length / 2))
    .toString('hex')
    .slice(0, signature.length);
  return { ...grant, fields: { ...grant.fields, 'X-Amz-Signature': random } };
}

interface DeclaredFile {
  name: string;
  mime: string;
  size: number;
  field: string;
}

/** The declared files, cleaned like multipart ones; `quiet` answers undefined instead of refusing. */
function readFiles(request: SubmitRequest, quiet: boolean): DeclaredFile[] | undefined {
  try {
    const type = (request.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new ServiceError(
        'unsupported_media_type',
        'Send the files to upload as application/json',
      );
    }
    if (request.body.length > BODY_LIMIT_BYTES) {
      throw new ServiceError('payload_too_large', 'The request exceeds 200 KB');
    }
    let input: unknown;
    try {
      input = parseWellFormedJson(request.body.toString('utf8'));
    } catch {
      throw new ServiceError('unsupported_media_type', 'The body is not valid JSON');
    }
    const { files } = parse(uploadRequestSchema, input);
    return files.map((file) => ({
      name: nameForMetadata(cleanFileName(file.name)),
      mime: storedMime(file.type),
      size: file.size,
      field: file.field ?? '',
    }));
  } catch (error) {
    if (quiet) return undefined;
    throw error;
  }
}

async function sign(form: FormRecord, files: readonly DeclaredFile[], now: Date) {
  if (files.length === 0) return [];
  const { uploadPolicy } = await import('#aws/upload-policies.ts');
  const maxBytes = directFileLimitOf(form);
  const expiresAt = new Date(now.getTime() + UPLOAD_POLICY_SECONDS * 1000).toISOString();
  return Promise.all(
    files.slice(0, MAX_DIRECT_FILES).map(async (file): Promise<GrantedUpload> => {
      const uploadId = randomUUIDv7();
      const policy = await uploadPolicy({ formId: form.id, uploadId, ...file, maxBytes });
      return { uploadId, url: policy.url, fields: policy.fields, expiresAt };
    }),
  );
}
