/**
 * Malware scanning of uploaded files (docs/uploads-and-pages.md#malware-scanning):
 * each stored file carries a `scan` state, `pending` until GuardDuty Malware
 * Protection for S3 says what it found, then `clean`, `infected` (with the
 * threat names), `unsupported` (password-protected, too deeply compressed)
 * or `failed` (access denied, a scan error); `not_scanned` where scanning is
 * off. Pure: the submit path, the scan-result worker, the API's answers, the
 * emails and the dashboard read the same rules.
 */

export const SCAN_STATUSES = [
  'pending',
  'clean',
  'infected',
  'unsupported',
  'failed',
  'not_scanned',
] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
/** What a scan ends in. */
export type ScanVerdict = Extract<ScanStatus, 'clean' | 'infected' | 'unsupported' | 'failed'>;

/** The object tag GuardDuty writes after a scan, and the bucket policy reads. */
export const SCAN_STATUS_TAG = 'GuardDutyMalwareScanStatus';
/** The one tag value the bucket policy lets a file be read with. */
export const CLEAN_TAG_VALUE = 'NO_THREATS_FOUND';

/** EventBridge's source and detail-type of a scan's result (AWS's GuardDuty user guide). */
export const SCAN_EVENT_SOURCE = 'aws.guardduty';
export const SCAN_RESULT_DETAIL_TYPE = 'GuardDuty Malware Protection Object Scan Result';
/**
 * The plan's own trouble: a verdict whose tag could not be written (the file
 * stays unreadable), a plan that scans badly or not at all.
 */
export const PLAN_PROBLEM_DETAIL_TYPES = [
  'GuardDuty Malware Protection Post Scan Action Failed',
  'GuardDuty Malware Protection Resource Status Warning',
  'GuardDuty Malware Protection Resource Status Error',
] as const;

/**
 * GuardDuty's scan result statuses (its tag values) and the verdict each
 * stands for: the five of the user guide, nothing else.
 */
const VERDICTS: Readonly<Record<string, ScanVerdict>> = {
  NO_THREATS_FOUND: 'clean',
  THREATS_FOUND: 'infected',
  UNSUPPORTED: 'unsupported',
  ACCESS_DENIED: 'failed',
  FAILED: 'failed',
};

/** The verdict of GuardDuty's result status, or undefined for one it does not document. */
export function verdictOf(resultStatus: unknown): ScanVerdict | undefined {
  return typeof resultStatus === 'string' && Object.hasOwn(VERDICTS, resultStatus)
    ? VERDICTS[resultStatus]
    : undefined;
}

/** What these rules read of a stored file (submission-model.ts `StoredFile`). */
interface Scanned {
  scan?: ScanStatus;
}

/** A new file's state: waiting for its verdict, or never to be scanned. */
export function initialScan(
  mode: 'guardduty' | 'off',
): Extract<ScanStatus, 'pending' | 'not_scanned'> {
  return mode === 'off' ? 'not_scanned' : 'pending';
}

/**
 * A post's files as the submit path stores them (docs/submit.md#processing-order,
 * step 12): each waiting for its verdict with the ETag of the object stored for
 * it, or never to be scanned; and how many wait.
 */
export function filesToScan<F extends object>(
  files: readonly F[],
  etags: readonly string[],
  mode: 'guardduty' | 'off',
): { files: (F & { scan: ScanStatus; etag?: string })[]; pending: number } {
  const scan = initialScan(mode);
  return {
    files: files.map((file, i) =>
      scan === 'pending' ? { ...file, scan, etag: plainEtag(etags[i] ?? '') } : { ...file, scan },
    ),
    pending: scan === 'pending' ? files.length : 0,
  };
}

/** A file's state as shown: files stored before scanning existed were never scanned. */
export const scanOf = (file: Scanned): ScanStatus => file.scan ?? 'not_scanned';

/** How many of these files still wait for a verdict. */
export const pendingCount = (files: readonly Scanned[] = []): number =>
  files.filter((file) => file.scan === 'pending').length;

/** An S3 ETag as GuardDuty and our store write it: the hex digest, without S3's quotes. */
export const plainEtag = (etag: string): string => etag.replaceAll('"', '');

/**
 * When a submission's still pending files count as late: `lateSeconds`
 * (30 minutes deployed) after it was received.
 */
export function lateAt(createdAt: string, lateSeconds: number): number {
  return Date.parse(createdAt) + lateSeconds * 1000;
}

/** The default of `scanLateSeconds`: what "not checked yet" means in the dashboard. */
export const SCAN_LATE_SECONDS = 1800;

/**
 * What an owner reads of a file's state (the dashboard, the emails): a pending
 * file is "Checking…" until it is late, then "Not checked yet".
 */
export type ScanState =
  | 'checking'
  | 'not_checked_yet'
  | 'clean'
  | 'infected'
  | 'could_not_check'
  | 'not_scanned';

export function scanStateOf(
  file: Scanned,
  createdAt: string,
  now: number,
  lateSeconds = SCAN_LATE_SECONDS,
): ScanState {
  switch (scanOf(file)) {
    case 'pending':
      return now >= lateAt(createdAt, lateSeconds) ? 'not_checked_yet' : 'checking';
    case 'clean':
      return 'clean';
    case 'infected':
      return 'infected';
    case 'unsupported':
    case 'failed':
      return 'could_not_check';
    case 'not_scanned':
      return 'not_scanned';
  }
}

/** The words of each state (the dashboard's, the notification's). */
export function scanStateText(state: ScanState, threats: readonly string[] = []): string {
  switch (state) {
    case 'checking':
      return 'Checking…';
    case 'not_checked_yet':
      return 'Not checked yet';
    case 'clean':
      return 'Clean';
    case 'infected':
      return `Malware found: ${threats.join(', ') || 'unnamed threat'}, deleted`;
    case 'could_not_check':
      return 'Could not be checked';
    case 'not_scanned':
      return 'Not scanned';
  }
}

/** Whether a file may be downloaded: only a clean one, or one never to be scanned. */
export const downloadable = (file: Scanned): boolean =>
  scanOf(file) === 'clean' || scanOf(file) === 'not_scanned';

/** How soon a client may ask again for a file still being checked: GuardDuty takes seconds. */
export const PENDING_RETRY_AFTER_SECONDS = 30;

/**
 * Why a file's link is refused, or undefined when it may be had
 * (docs/submissions.md#file-links): only a clean file, or, where nothing is
 * scanned, one never scanned. With scanning on, a file stored before it was
 * on has no clean tag, and the bucket policy would refuse the link anyway.
 */
export function linkRefusal(
  file: Scanned,
  mode: 'guardduty' | 'off',
):
  | { code: 'file_not_scanned'; message: string; retryAfterSeconds?: number }
  | { code: 'file_infected' | 'file_scan_failed'; message: string }
  | undefined {
  switch (scanOf(file)) {
    case 'clean':
      return undefined;
    case 'not_scanned':
      return mode === 'off'
        ? undefined
        : {
            code: 'file_not_scanned',
            message:
              'The file was stored before malware scanning was on: it cannot be downloaded while scanning is on',
          };
    case 'pending':
      // Scanning turned off since: no verdict will come, and no policy refuses the object.
      if (mode === 'off') return undefined;
      return {
        code: 'file_not_scanned',
        message: 'The file is still being checked for malware; ask again shortly',
        retryAfterSeconds: PENDING_RETRY_AFTER_SECONDS,
      };
    case 'infected':
      return {
        code: 'file_infected',
        message: 'Malware was found in the file; it was deleted and cannot be downloaded',
      };
    case 'unsupported':
    case 'failed':
      return {
        code: 'file_scan_failed',
        message:
          'The file could not be checked for malware (password-protected, too deeply packed, or a scan error): it cannot be downloaded',
      };
  }
}

/**
 * How long after a submission's id was drawn its post may still be storing it
 * (the submit function's 20 s timeout, with room): a scan result for a file
 * of a submission not found yet is looked at again until then, if the file's
 * object is there.
 */
export const STORING_GRACE_SECONDS = 60;

/** The time (Unix ms) a UUID v7 carries in its first 48 bits. */
export const uuidV7Time = (id: string): number =>
  Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
