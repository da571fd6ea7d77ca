import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '#config';
import type { ScanStatus, ScanVerdict } from '#domain/file-scans.ts';
import type { Submission } from '#domain/submission-model.ts';
import { documents } from './client.ts';
import { toSubmission } from './folder-reads.ts';
import { submissionKey } from './keys.ts';

/** Why a scan result changed nothing. */
export type VerdictRefusal =
  /** No such submission (not stored yet, refused, or deleted since). */
  | 'no_submission'
  /** The submission has no file at that place. */
  | 'no_file'
  /** The file has its verdict already: a repeated or late event. */
  | 'not_pending'
  /** The file is another object than the one scanned (another ETag). */
  | 'other_object';

export type VerdictRecorded =
  /** The submission as the write left it, and its team (for the audit trail). */
  | { recorded: true; submission: Submission; teamId: string }
  | {
      recorded: false;
      why: VerdictRefusal;
      teamId?: string;
      /** The file's state as the refusing write found it (with `not_pending`). */
      scan?: ScanStatus;
      /** The file's name as sent, when the submission has the file. */
      name?: string;
    };

/**
 * Records a file's verdict (docs/uploads-and-pages.md#malware-scanning): one
 * conditional UpdateItem of the submission, keyed by what the scan was
 * about, the file's object key (its form, submission and place) and that
 * object's ETag, and only while the file is `pending`, so a repeated or late
 * event changes nothing. The same write takes one off `scanPending`: the
 * write that brings it to 0 is the stream record that announces
 * `submission.files_scanned` (docs/delivery.md#files-scanned), exactly once.
 * `index` is a whole number below 1,000 (uploadOfKey's), safe in the path.
 */
export async function recordVerdict(input: {
  formId: string;
  submissionId: string;
  index: number;
  etag: string;
  verdict: ScanVerdict;
  threats: readonly string[];
  at: string;
}): Promise<VerdictRecorded> {
  if (!Number.isInteger(input.index) || input.index < 0 || input.index > 999) {
    return { recorded: false, why: 'no_file' };
  }
  const file = `#meta.#files[${input.index}]`;
  const threats = input.verdict === 'infected' ? `, ${file}.#threats = :threats` : '';
  try {
    const { Attributes } = await documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: submissionKey(input.formId, input.submissionId),
        UpdateExpression: `SET ${file}.#scan = :verdict, ${file}.#scannedAt = :at${threats} ADD #pending :minusOne`,
        ConditionExpression: `${file}.#scan = :pending AND ${file}.#etag = :etag`,
        ExpressionAttributeNames: {
          '#meta': 'meta',
          '#files': 'files',
          '#scan': 'scan',
          '#scannedAt': 'scannedAt',
          '#etag': 'etag',
          '#pending': 'scanPending',
          ...(threats ? { '#threats': 'threats' } : {}),
        },
        ExpressionAttributeValues: {
          ':verdict': input.verdict,
          ':at': input.at,
          ':pending': 'pending',
          ':etag': input.etag,
          ':minusOne': -1,
          ...(threats ? { ':threats': [...input.threats] } : {}),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return {
      recorded: true,
      submission: toSubmission(Attributes!),
      teamId: String(Attributes!.teamId),
    };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // The item as it stood, in raw attribute values (the document client leaves errors be).
    if (!error.Item) return { recorded: false, why: 'no_submission' };
    const stood = unmarshall(error.Item) as Submission & { teamId?: string };
    const found = stood.meta?.files?.[input.index];
    const why: VerdictRefusal = !found
      ? 'no_file'
      : found.scan !== 'pending'
        ? 'not_pending'
        : 'other_object';
    return { recorded: false, why, teamId: stood.teamId, scan: found?.scan, name: found?.name };
  }
}
