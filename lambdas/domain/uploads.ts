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

const UPLOAD_KEY =
  /^forms\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(\d{1,3})$/i;

/**
 * The file an object key of `uploadKey`'s shape names, or undefined for any
 * other key (a pending direct upload, an object of nobody's): what a scan
 * result is about.
 */
export function uploadOfKey(
  key: string,
): { formId: string; submissionId: string; index: number } | undefined {
  const match = UPLOAD_KEY.exec(key);
  if (!match) return undefined;
  return { formId: match[1]!, submissionId: match[2]!, index: Number(match[3]) };
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
