/**
 * Every uploaded file of a form lives under this prefix (the submit path
 * adds `<submissionId>/<index>`), so deleting a form can find them all.
 */
export function formUploadsPrefix(formId: string): string {
  return `forms/${formId}/`;
}

/** Where file `index` of `meta.files` is stored; the name stays in `meta`, never in the key. */
export function uploadKey(formId: string, submissionId: string, index: number): string {
  return `${formUploadsPrefix(formId)}${submissionId}/${index}`;
}
