import type { SQSRecord } from 'aws-lambda';
import { deleteUpload, uploadExists } from '#aws/uploads.ts';
import { config } from '#config';
import { lateAt, pendingCount, STORING_GRACE_SECONDS, uuidV7Time } from '#domain/file-scans.ts';
import { infectedFileEvent } from '#domain/infected-files.ts';
import { readScanMessage, type ScanMessage } from '#domain/scan-events.ts';
import { log } from '#log';
import { count } from '#metrics';
import { recordAuditOnce } from '#store/audit.ts';
import { recordVerdict } from '#store/file-scans.ts';
import { getSubmission } from '#store/submissions.ts';
import { queueWorker } from './batch-worker.ts';

/** The SQS client: only a message looked at again later, or an unreadable one, needs it. */
const queues = () => import('#aws/queues.ts');

/**
 * The scanResults queue (docs/uploads-and-pages.md#malware-scanning): GuardDuty
 * Malware Protection's scan results for the uploads bucket, the plan's own
 * trouble, and the stream dispatcher's late checks. A result becomes the
 * file's verdict with one conditional write keyed by the object's key and
 * ETag, only while the file is pending, so a repeated or late event changes
 * nothing; an infected file is then deleted from the bucket (its verdict and
 * threat names stay on the submission), counted and audited. What is not for
 * us, or has nothing left to change, is dropped and counted, never retried; a
 * body that is not JSON goes straight to the dead-letter queue.
 */
export const handler = queueWorker(() => handle, { parallel: true });

async function handle(record: SQSRecord): Promise<void> {
  const message = readScanMessage(record.body, config.uploadsBucket);
  if (!message) {
    // Nothing here can read it: it waits for an operator, with no retries wasted on it.
    await (await queues()).sendToDeadLetters('scanResults', record.body);
    count('ScanEventDropped', 1, { reason: 'unreadable' });
    log.warn('scan event unreadable: moved to the dead-letter queue', {
      bytes: record.body.length,
    });
    return;
  }
  switch (message.kind) {
    case 'dropped':
      count('ScanEventDropped', 1, { reason: message.reason });
      log.warn('scan event dropped', { reason: message.reason });
      return;
    case 'planProblem':
      count('ScanPlanProblem');
      log.error('the malware protection plan reports trouble', {
        detailType: message.detailType,
        detail: message.detail,
      });
      return;
    case 'lateCheck':
      return checkLate(message, record);
    case 'result':
      return recordResult(message, record);
  }
}

/**
 * How soon a result for a submission still being stored is looked at again:
 * within STORING_GRACE_SECONDS (60) that is 3 looks more at most, under the
 * queue's 5 receives.
 */
const STORING_RECHECK_SECONDS = 20;

async function recordResult(
  result: Extract<ScanMessage, { kind: 'result' }>,
  record: SQSRecord,
): Promise<void> {
  const file = { formId: result.formId, submissionId: result.submissionId, index: result.index };
  const infected = result.verdict === 'infected';
  // The verdict first: only the object this very event is about is deleted (a late or repeated
  // event changes nothing). Meanwhile the bucket policy already refuses to read it: no clean tag.
  const outcome = await recordVerdict(result);
  if (!outcome.recorded) {
    if (outcome.why === 'no_submission' && (await mayBeStoring(file))) {
      // A copy a little later, and this one handled: a wait is no failure of the worker (its
      // errors alarm), and it ends by itself once the post is STORING_GRACE_SECONDS old.
      await (await queues()).sendAgainLater(
        'scanResults',
        record.body,
        STORING_RECHECK_SECONDS,
        {},
      );
      return;
    }
    // A retry after a failed audit or deletion finds the verdict written: both are done again
    // (the audit event's id is the verdict's, so it is recorded once). A file of no stored
    // submission that is infected is not left in the bucket either.
    const again = outcome.why === 'not_pending' && outcome.scan === 'infected';
    if (infected && again && outcome.teamId) {
      await auditInfected(result, outcome.teamId, outcome.name ?? '');
    }
    if (infected && (again || outcome.why === 'no_submission')) {
      await deleteUpload(file.formId, file.submissionId, file.index);
    }
    count('ScanEventDropped', 1, { reason: outcome.why });
    log.info('scan result changed nothing', { ...file, verdict: result.verdict, why: outcome.why });
    return;
  }
  count('FileScanned', 1, { verdict: result.verdict });
  log.info('file scanned', { ...file, verdict: result.verdict });
  if (!infected) return;
  count('FileInfected');
  log.warn('malware found in an uploaded file: deleted', { ...file, threats: result.threats });
  // Audited before the deletion: a failed audit or deletion is retried (above).
  await auditInfected(
    result,
    outcome.teamId,
    outcome.submission.meta.files?.[file.index]?.name ?? '',
  );
  await deleteUpload(file.formId, file.submissionId, file.index);
}

function auditInfected(
  result: Extract<ScanMessage, { kind: 'result' }>,
  teamId: string,
  name: string,
): Promise<void> {
  return recordAuditOnce(
    infectedFileEvent({
      formId: result.formId,
      submissionId: result.submissionId,
      index: result.index,
      teamId,
      name,
      threats: result.threats,
      at: result.at,
    }),
  );
}

/**
 * A result for a submission not found: one whose post is still storing it
 * (the submit path puts files before the submission) is looked at again a
 * little later; a refused or deleted one's file is gone.
 */
async function mayBeStoring(file: {
  formId: string;
  submissionId: string;
  index: number;
}): Promise<boolean> {
  if (Date.now() - uuidV7Time(file.submissionId) > STORING_GRACE_SECONDS * 1000) return false;
  return uploadExists(file.formId, file.submissionId, file.index);
}

/**
 * Counts the files of a submission still waiting for their verdict once it
 * is `scanLateSeconds` (30 minutes) old (`FileScanLate`, alarmed); a check
 * received sooner sends itself on to then (message timers stop at 15 minutes).
 */
async function checkLate(
  check: Extract<ScanMessage, { kind: 'lateCheck' }>,
  record: SQSRecord,
): Promise<void> {
  const submission = await getSubmission(check.formId, check.submissionId);
  if (!submission) return;
  const due = lateAt(submission.createdAt, config.scanLateSeconds);
  const now = Date.now();
  if (now < due) {
    // Not due: a copy for when it is (a message timer stops at 15 minutes, so a 30-minute
    // check is sent on twice), and this one handled. Hiding it and failing the record would
    // count a worker error, and alarm, for every submission with a file.
    await (await queues()).sendAgainLater('scanResults', record.body, (due - now) / 1000, {});
    return;
  }
  const late = pendingCount(submission.meta.files);
  if (late === 0) return;
  count('FileScanLate', late);
  log.warn('files still wait for their malware scan', {
    formId: check.formId,
    submissionId: check.submissionId,
    files: late,
  });
}
