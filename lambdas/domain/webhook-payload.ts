import { type FileView, fileView, type Submission } from '#domain/submission-model.ts';

/**
 * The body of a `submission.created` delivery (docs/delivery.md#webhook-requests;
 * `data.spam` is our addition: spam is delivered too, flagged). Serialised
 * once per attempt and signed as these exact bytes.
 *
 * Size: every answer is owed, so the body is not trimmed to the
 * Standard Webhooks recommendation of 20 KB. Its bound is the submit limits:
 * 50 fields × (200-character name + 10,000-character value), about 510 KB of
 * answers at worst (more in bytes for non-ASCII text, and JSON escaping),
 * well under what an HTTPS POST carries.
 */
/** What both submission events say of the submission itself. */
interface SubmissionEventData {
  formId: string;
  submissionId: string;
  submittedAt: string;
  test: boolean;
  spam: boolean;
}

export interface WebhookPayload {
  type: 'submission.created';
  timestamp: string;
  data: SubmissionEventData & {
    fields: Record<string, string>;
    /**
     * Only when files were attached: each file's name, type, size and malware
     * scan state (docs/uploads-and-pages.md#malware-scanning), never its content
     * or a link.
     */
    files?: FileView[];
  };
}

export const WEBHOOK_EVENT_TYPE = 'submission.created';

/**
 * The body of a `submission.files_scanned` delivery (docs/delivery.md#files-scanned):
 * sent once every file of a submission has its verdict, with each file's
 * state; no answers (the first event had them).
 */
export interface FilesScannedPayload {
  type: 'submission.files_scanned';
  timestamp: string;
  data: SubmissionEventData & { files: FileView[] };
}

export const FILES_SCANNED_EVENT_TYPE = 'submission.files_scanned';

/**
 * Answers by name, strings only, without special fields (names starting
 * with `_`, such as the stored `_invalid`) and without files. A
 * null-prototype object, so answers named `__proto__`, `constructor` or
 * `toString` are plain own properties and reach the JSON like any other.
 */
export function webhookFields(data: Readonly<Record<string, unknown>>): Record<string, string> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(data)) {
    if (name.startsWith('_') || typeof value !== 'string') continue;
    fields[name] = value;
  }
  return fields;
}

export function webhookPayloadObject(
  submission: Submission,
  sentAt: Date,
  spam: boolean,
): WebhookPayload {
  return {
    type: WEBHOOK_EVENT_TYPE,
    timestamp: sentAt.toISOString(),
    data: {
      formId: submission.formId,
      submissionId: submission.id,
      submittedAt: submission.createdAt,
      test: submission.isTest,
      spam,
      fields: webhookFields(submission.data),
      ...(submission.meta.files ? { files: submission.meta.files.map(fileView) } : {}),
    },
  };
}

export function filesScannedPayloadObject(
  submission: Submission,
  sentAt: Date,
  spam: boolean,
): FilesScannedPayload {
  return {
    type: FILES_SCANNED_EVENT_TYPE,
    timestamp: sentAt.toISOString(),
    data: {
      formId: submission.formId,
      submissionId: submission.id,
      submittedAt: submission.createdAt,
      test: submission.isTest,
      spam,
      files: (submission.meta.files ?? []).map(fileView),
    },
  };
}

/** The exact JSON body of one attempt; `sentAt` is the time of this attempt. */
export function webhookPayload(
  submission: Submission,
  sentAt: Date,
  spam: boolean,
  event: 'submission.created' | 'submission.files_scanned' = WEBHOOK_EVENT_TYPE,
): string {
  return JSON.stringify(
    event === FILES_SCANNED_EVENT_TYPE
      ? filesScannedPayloadObject(submission, sentAt, spam)
      : webhookPayloadObject(submission, sentAt, spam),
  );
}
