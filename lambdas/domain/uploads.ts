/** Every submission's file lives under this prefix (pending direct uploads do not). */
export const SUBMISSION_UPLOADS_PREFIX = 'forms/';

/**
 * Every uploaded file of a form lives under this prefix (the submit path
 * adds `<submissionId>/<index>`), so deleting a form can find them all.
 */
export function formUploadsPrefix(formId: string): string {
  return `${SUBMISSION_UPLOADS_PREFIX}${formId}/`;
}

/** Where file `index` of `meta.files` is stored; the name stays in `meta`, never in the key. */
export function uploadKey(formId: string, submissionId: string, index: number): string {
  return `${formUploadsPrefix(formId)}${submissionId}/${index}`;
}

/**
 * `Content-Disposition: attachment` with the original name: an ASCII
 * fallback for old clients and the exact name in RFC 5987 `filename*`.
 */
export function attachmentDisposition(sent: string): string {
  // A lone surrogate has no UTF-8: U+FFFD stands for it (encodeURIComponent would throw).
  const name = sent.toWellFormed();
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'file';
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
