import type { ResponseBody } from '#contracts/responses.ts';

/** What the screens read of the API's answers: the route contracts' shapes. */

export type FormSummary = ResponseBody<'FormList'>['forms'][number];
export type Form = ResponseBody<'Form'>;
export type FormAnalytics = ResponseBody<'Summary'>;
export type Webhook = ResponseBody<'Webhook'>;
export type Delivery = ResponseBody<'Delivery'>;
export type Member = ResponseBody<'Member'>;
export type ApiKey = ResponseBody<'ApiKeyList'>['apiKeys'][number];
export type SessionEntry = ResponseBody<'SessionList'>['sessions'][number];
export type AuditEvent = ResponseBody<'AuditPage'>['events'][number];
export type FieldDefinition = NonNullable<Form['fields']>[number];
export type TeamView = ResponseBody<'TeamView'>;
export type Submission = ResponseBody<'Submission'>;
export type SubmissionPage = ResponseBody<'SubmissionPage'>;
export type Session = ResponseBody<'SessionView'>;

/** `pending`: waiting for the visitor's confirmation by email (docs/submit.md#confirm-by-email). */
export type Folder = 'all' | 'unread' | 'starred' | 'spam' | 'pending';
export type SpamReason = NonNullable<Submission['spamReason']>;
export const FOLDERS: Folder[] = ['all', 'unread', 'starred', 'spam', 'pending'];
export type Confirmation = NonNullable<Submission['confirmation']>;
export type SubmissionEmails = NonNullable<Submission['emails']>;
export type EmailOutcome = NonNullable<SubmissionEmails['notification']>;
export type Suppression = ResponseBody<'SuppressionList'>['suppressions'][number];
