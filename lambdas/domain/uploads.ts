/**
 * Every uploaded file of a form lives under this prefix (the submit path
 * adds `<submissionId>/<index>`), so deleting a form can find them all.
 */
export function formUploadsPrefix(formId: string): string {
  return `forms/${formId}/`;
}
