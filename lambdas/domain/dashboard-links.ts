/**
 * Addresses of the dashboard's pages, for emails and the dashboard alike
 * (docs/dashboard.md#screens). `baseUrl` is the deployment's base URL (the
 * API Gateway stage included), without a trailing slash.
 */

/**
 * The page of one submission. Signed out, the dashboard asks for a sign-in
 * first and then lands on this page (docs/delivery.md#notification-email).
 */
export function submissionPageUrl(baseUrl: string, formId: string, submissionId: string): string {
  return `${baseUrl}/app/forms/${encodeURIComponent(formId)}/submissions/${encodeURIComponent(submissionId)}`;
}
