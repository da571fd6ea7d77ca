import type { EmailHints } from './email-messages.ts';
import { type Submission, submissionView } from './submission-model.ts';

/**
 * The export by email's document (docs/privacy.md#export-by-email):
 * `{"submissions":[…]}`, written as its submissions are read. Pure: the
 * reads are the caller's, one batch at a time.
 */

/**
 * One submission of the document, with its form's name and the `_replyto`
 * and `_subject` kept beside its answers (null when it had none): the
 * document holds everything the service keeps of it.
 */
export function personExportEntry(
  formName: string,
  submission: Submission,
  hints: EmailHints = {},
) {
  const { formId, id, createdAt, data, meta, isSpam, isTest } = submissionView(submission);
  return {
    formId,
    formName,
    id,
    createdAt,
    data,
    replyTo: hints.replyTo ?? null,
    subject: hints.subject ?? null,
    meta,
    files: (meta.files ?? []).map((file) => file.name),
    isSpam,
    isTest,
  };
}

/** A batch of one form's submissions, as read. */
export interface PersonExportBatch {
  formName: string;
  submissions: readonly Submission[];
  /** The email hints of those that have some, by submission id. */
  hints?: ReadonlyMap<string, EmailHints>;
}

/** Why a document stopped before its end: it would have passed `maxBytes`. */
export class DocumentTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the document would pass ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/**
 * The document's text, one chunk per batch: the opening before any batch is
 * read, so the first bytes leave at once, and the closing only after the last
 * batch, with the members `more` gives then (read last: they are small). A failing read, or a document that would pass `maxBytes`, throws
 * before the closing: what was sent is not valid JSON, so no parser takes a
 * cut document for a whole one (docs/privacy.md#when-an-export-fails).
 */
export async function* personDocument(
  batches: AsyncIterable<PersonExportBatch>,
  maxBytes: number,
  more: () => Promise<Record<string, unknown>> = async () => ({}),
): AsyncGenerator<string> {
  const opening = '{"submissions":[';
  let bytes = opening.length + 2;
  let first = true;
  yield opening;
  for await (const { formName, submissions, hints } of batches) {
    let chunk = '';
    for (const submission of submissions) {
      const exported = personExportEntry(formName, submission, hints?.get(submission.id));
      const entry = `${first ? '' : ','}${JSON.stringify(exported)}`;
      first = false;
      bytes += Buffer.byteLength(entry);
      if (bytes > maxBytes) {
        // What the batch held up to here still goes out; the document ends cut.
        if (chunk) yield chunk;
        throw new DocumentTooLarge(maxBytes);
      }
      chunk += entry;
    }
    if (chunk) yield chunk;
  }
  const members = Object.entries(await more()).map(
    ([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`,
  );
  yield `]${members.join('')}}`;
}

/**
 * What the team's suppression list holds of the person (docs/privacy.md#export-by-email):
 * their address is kept there, so the export says it; null when it is not on it.
 */
export function suppressedView(
  entry:
    | {
        email: string;
        reason: string;
        bounceType?: string;
        at: string;
        formId: string;
        submissionId: string;
      }
    | undefined,
) {
  if (!entry) return null;
  const { email, reason, bounceType, at, formId, submissionId } = entry;
  return { email, reason, bounceType: bounceType ?? null, at, formId, submissionId };
}
