import {
  PLAN_PROBLEM_DETAIL_TYPES,
  plainEtag,
  SCAN_EVENT_SOURCE,
  SCAN_RESULT_DETAIL_TYPE,
  type ScanVerdict,
  verdictOf,
} from './file-scans.ts';
import { cutToCodePoints } from './submission-answers.ts';
import { uploadOfKey } from './uploads.ts';
import { withoutHiddenCharacters } from './visible-text.ts';

/**
 * The scanResults queue's messages read (docs/uploads-and-pages.md#malware-scanning):
 * GuardDuty's scan result events as EventBridge's SQS target delivers them,
 * the plan's own trouble, the dispatcher's late checks; everything bounded,
 * what is not for us dropped with a reason. Apart from file-scans.ts, whose
 * states the dashboard bundles too: this reader is the worker's alone.
 */

/** At most this many threat names are kept, each at most THREAT_NAME_MAX characters. */
export const MAX_THREATS = 10;
const THREAT_NAME_MAX = 200;
const OBJECT_KEY_MAX = 1024;
const ETAG_MAX = 100;

/** One message of the scanResults queue, read. */
export type ScanMessage =
  /** A file's scan result, for an object of a stored submission's. */
  | {
      kind: 'result';
      formId: string;
      submissionId: string;
      index: number;
      etag: string;
      verdict: ScanVerdict;
      /** The threat names, for `infected`. */
      threats: string[];
      /** When GuardDuty published it. */
      at: string;
    }
  /** The plan reports trouble (PLAN_PROBLEM_DETAIL_TYPES). */
  | { kind: 'planProblem'; detailType: string; detail: string }
  /** The dispatcher's check that a submission's files got their verdicts in time. */
  | { kind: 'lateCheck'; formId: string; submissionId: string }
  /** Read, but not for us or not a shape we know: dropped and counted by `reason`. */
  | { kind: 'dropped'; reason: DropReason };

export type DropReason =
  | 'malformed'
  | 'unknown_status'
  | 'other_bucket'
  | 'not_a_submission_file'
  | 'other_event';

/** The check message the dispatcher sends for a submission whose files wait (lateCheck). */
export interface LateCheckJob {
  check: 'late';
  formId: string;
  submissionId: string;
}

/**
 * A message of the scanResults queue: an EventBridge event as its SQS target
 * delivers it (the event itself as the body), or a late check. `undefined`
 * when the body is not JSON at all: that one the worker cannot read, and it
 * goes to the dead-letter queue. Everything else read here is bounded.
 */
export function readScanMessage(body: string, bucket: string): ScanMessage | undefined {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(event)) return dropped('malformed');
  if (event.check === 'late') {
    const { formId, submissionId } = event;
    return isId(formId) && isId(submissionId)
      ? { kind: 'lateCheck', formId, submissionId }
      : dropped('malformed');
  }
  if (event.source !== SCAN_EVENT_SOURCE) return dropped('other_event');
  const detailType = event['detail-type'];
  if ((PLAN_PROBLEM_DETAIL_TYPES as readonly unknown[]).includes(detailType)) {
    return {
      kind: 'planProblem',
      detailType: detailType as string,
      detail: JSON.stringify(event.detail ?? null).slice(0, 1000),
    };
  }
  if (detailType !== SCAN_RESULT_DETAIL_TYPE) return dropped('other_event');
  const detail = event.detail;
  if (!isRecord(detail) || !isRecord(detail.s3ObjectDetails)) return dropped('malformed');
  if (!isRecord(detail.scanResultDetails)) return dropped('malformed');
  const { bucketName, objectKey, eTag } = detail.s3ObjectDetails;
  if (typeof bucketName !== 'string' || typeof objectKey !== 'string') return dropped('malformed');
  if (typeof eTag !== 'string' || eTag.length === 0 || eTag.length > ETAG_MAX) {
    return dropped('malformed');
  }
  if (bucketName !== bucket) return dropped('other_bucket');
  const verdict = verdictOf(detail.scanResultDetails.scanResultStatus);
  if (!verdict) return dropped('unknown_status');
  const upload = objectKey.length <= OBJECT_KEY_MAX ? uploadOfKey(objectKey) : undefined;
  if (!upload) return dropped('not_a_submission_file');
  const time = typeof event.time === 'string' && !Number.isNaN(Date.parse(event.time));
  return {
    kind: 'result',
    ...upload,
    etag: plainEtag(eTag),
    verdict,
    threats: verdict === 'infected' ? threatNames(detail.scanResultDetails.threats) : [],
    at: time ? new Date(event.time as string).toISOString() : new Date().toISOString(),
  };
}

/** GuardDuty's threat names, each as visible text, bounded; at least one name for a threat. */
function threatNames(threats: unknown): string[] {
  const names = Array.isArray(threats)
    ? threats
        .slice(0, MAX_THREATS)
        .map((threat) => (isRecord(threat) && typeof threat.name === 'string' ? threat.name : ''))
        .map((name) => cutToCodePoints(withoutHiddenCharacters(name).trim(), THREAT_NAME_MAX))
        .filter((name) => name !== '')
    : [];
  return names.length > 0 ? names : ['unnamed threat'];
}

const dropped = (reason: DropReason): ScanMessage => ({ kind: 'dropped', reason });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
