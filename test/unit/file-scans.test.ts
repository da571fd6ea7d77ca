import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  downloadable,
  initialScan,
  linkRefusal,
  pendingCount,
  scanStateOf,
  scanStateText,
  verdictOf,
} from '#domain/file-scans.ts';
import { readScanMessage } from '#domain/scan-events.ts';
import { uploadKey, uploadOfKey } from '#domain/uploads.ts';

/**
 * The verdict mapping (docs/uploads-and-pages.md#malware-scanning), read from
 * AWS's own sample of the scan result event (test/fixtures/guardduty-events/),
 * with only its status, bucket and key changed: all five statuses GuardDuty
 * documents, and what is dropped.
 */
const SAMPLE = readFileSync(
  new URL('../fixtures/guardduty-events/object-scan-result.json', import.meta.url),
  'utf8',
);
const BUCKET = 'form-service-uploads';
const FORM = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const SUBMISSION = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a6c';

interface SampleEvent {
  'detail-type': string;
  detail: {
    s3ObjectDetails?: Record<string, unknown>;
    scanResultDetails: Record<string, unknown>;
  };
}

/** AWS's sample about one of our files, with `status` as its result. */
function sampleWith(status: string, change: (event: SampleEvent) => void = () => {}): string {
  const event = JSON.parse(SAMPLE);
  event.detail.s3ObjectDetails.bucketName = BUCKET;
  event.detail.s3ObjectDetails.objectKey = uploadKey(FORM, SUBMISSION, 2);
  event.detail.scanResultDetails.scanResultStatus = status;
  if (status !== 'THREATS_FOUND') event.detail.scanResultDetails.threats = null;
  change(event);
  return JSON.stringify(event);
}

describe('a scan result event becomes a verdict', () => {
  it('AWS’s sample as published is a threat found, for its own bucket and key', () => {
    const event = JSON.parse(SAMPLE);
    expect(event['detail-type']).toBe('GuardDuty Malware Protection Object Scan Result');
    expect(verdictOf(event.detail.scanResultDetails.scanResultStatus)).toBe('infected');
    // Its bucket is not ours, and its key names no submission's file: dropped, not a crash.
    expect(readScanMessage(SAMPLE, BUCKET)).toEqual({ kind: 'dropped', reason: 'other_bucket' });
    expect(readScanMessage(SAMPLE, 'amzn-s3-demo-bucket')).toEqual({
      kind: 'dropped',
      reason: 'not_a_submission_file',
    });
  });

  it.each([
    ['NO_THREATS_FOUND', 'clean'],
    ['THREATS_FOUND', 'infected'],
    ['UNSUPPORTED', 'unsupported'],
    ['ACCESS_DENIED', 'failed'],
    ['FAILED', 'failed'],
  ])('%s is %s', (status, verdict) => {
    const read = readScanMessage(sampleWith(status), BUCKET);
    expect(read).toEqual({
      kind: 'result',
      formId: FORM,
      submissionId: SUBMISSION,
      index: 2,
      etag: 'ASIAI44QH8DHBEXAMPLE',
      verdict,
      threats: verdict === 'infected' ? ['EICAR-Test-File (not a virus)'] : [],
      at: '2024-02-28T01:01:01.000Z',
    });
  });

  it('an ETag in S3’s quotes is compared without them', () => {
    const read = readScanMessage(
      sampleWith('NO_THREATS_FOUND', (e) => {
        e.detail.s3ObjectDetails!.eTag = '"6ee985bd6f65dc90bb7896a94fe9adb0"';
      }),
      BUCKET,
    );
    expect(read).toMatchObject({ kind: 'result', etag: '6ee985bd6f65dc90bb7896a94fe9adb0' });
  });

  it('threat names are bounded: ten at most, 200 characters each, hidden characters gone', () => {
    const read = readScanMessage(
      sampleWith('THREATS_FOUND', (e) => {
        e.detail.scanResultDetails.threats = Array.from({ length: 30 }, (_, i) => ({
          name: `Trojan\u200b${i}${'x'.repeat(300)}`,
        }));
      }),
      BUCKET,
    );
    if (read?.kind !== 'result') throw new Error(`read ${JSON.stringify(read)}`);
    expect(read.threats).toHaveLength(10);
    expect(read.threats[0]).toMatch(/^Trojan0x+$/);
    expect([...read.threats[0]!]).toHaveLength(200);
  });

  it('a threat found without names still says a threat was found', () => {
    const read = readScanMessage(
      sampleWith('THREATS_FOUND', (e) => {
        e.detail.scanResultDetails.threats = null;
      }),
      BUCKET,
    );
    expect(read).toMatchObject({ verdict: 'infected', threats: ['unnamed threat'] });
  });
});

describe('what is dropped, and what the dead-letter queue takes', () => {
  it.each([
    ['an unknown status', sampleWith('MAYBE_CLEAN'), 'unknown_status'],
    [
      'another bucket',
      sampleWith('NO_THREATS_FOUND', (e) => {
        e.detail.s3ObjectDetails!.bucketName = 'someone-elses';
      }),
      'other_bucket',
    ],
    [
      'a pending direct upload’s key',
      sampleWith('NO_THREATS_FOUND', (e) => {
        e.detail.s3ObjectDetails!.objectKey = `pending/${FORM}/abc`;
      }),
      'not_a_submission_file',
    ],
    [
      'a key past S3’s 1,024 bytes',
      sampleWith('NO_THREATS_FOUND', (e) => {
        e.detail.s3ObjectDetails!.objectKey = `forms/${'a'.repeat(1100)}`;
      }),
      'not_a_submission_file',
    ],
    [
      'no object details',
      sampleWith('NO_THREATS_FOUND', (e) => {
        delete e.detail.s3ObjectDetails;
      }),
      'malformed',
    ],
    [
      'no ETag',
      sampleWith('NO_THREATS_FOUND', (e) => {
        delete e.detail.s3ObjectDetails!.eTag;
      }),
      'malformed',
    ],
    ['an array', '[1,2]', 'malformed'],
    ['another service’s event', JSON.stringify({ source: 'aws.s3', detail: {} }), 'other_event'],
    [
      'another GuardDuty event',
      sampleWith('NO_THREATS_FOUND', (e) => {
        e['detail-type'] = 'GuardDuty Finding';
      }),
      'other_event',
    ],
    ['a late check with a bad id', JSON.stringify({ check: 'late', formId: 'x' }), 'malformed'],
  ])('%s is dropped as %s', (_what, body, reason) => {
    expect(readScanMessage(body, BUCKET)).toEqual({ kind: 'dropped', reason });
  });

  it('a body that is not JSON cannot be read at all: it goes to the dead-letter queue', () => {
    expect(readScanMessage('{"detail-type": "GuardDuty', BUCKET)).toBeUndefined();
  });

  it.each([
    'GuardDuty Malware Protection Post Scan Action Failed',
    'GuardDuty Malware Protection Resource Status Warning',
    'GuardDuty Malware Protection Resource Status Error',
  ])('%s is the plan’s own trouble', (detailType) => {
    const read = readScanMessage(
      JSON.stringify({ source: 'aws.guardduty', 'detail-type': detailType, detail: { a: 1 } }),
      BUCKET,
    );
    expect(read).toEqual({ kind: 'planProblem', detailType, detail: '{"a":1}' });
  });

  it('the dispatcher’s late check is read back', () => {
    const body = JSON.stringify({ check: 'late', formId: FORM, submissionId: SUBMISSION });
    expect(readScanMessage(body, BUCKET)).toEqual({
      kind: 'lateCheck',
      formId: FORM,
      submissionId: SUBMISSION,
    });
  });
});

describe('file states', () => {
  it('an object key names its form, submission and place, or nothing', () => {
    expect(uploadOfKey(uploadKey(FORM, SUBMISSION, 12))).toEqual({
      formId: FORM,
      submissionId: SUBMISSION,
      index: 12,
    });
    expect(uploadOfKey(`${uploadKey(FORM, SUBMISSION, 1)}/x`)).toBeUndefined();
    expect(uploadOfKey(`forms/${FORM}/not-an-id/1`)).toBeUndefined();
  });

  it('a new file waits for its verdict unless scanning is off', () => {
    expect(initialScan('guardduty')).toBe('pending');
    expect(initialScan('off')).toBe('not_scanned');
    expect(pendingCount([{ scan: 'pending' }, { scan: 'clean' }, {}])).toBe(1);
  });

  it('only a clean file, or one never to be scanned, may be downloaded', () => {
    expect(downloadable({ scan: 'clean' })).toBe(true);
    expect(downloadable({ scan: 'not_scanned' })).toBe(true);
    expect(downloadable({})).toBe(true);
    for (const scan of ['pending', 'infected', 'unsupported', 'failed'] as const) {
      expect(downloadable({ scan }), scan).toBe(false);
    }
  });

  it('a pending file is "Checking…" for 30 minutes, then "Not checked yet"', () => {
    const createdAt = '2026-11-28T10:00:00.000Z';
    const at = (minutes: number) => Date.parse(createdAt) + minutes * 60_000;
    expect(scanStateOf({ scan: 'pending' }, createdAt, at(29))).toBe('checking');
    expect(scanStateOf({ scan: 'pending' }, createdAt, at(30))).toBe('not_checked_yet');
    expect(scanStateText('infected', ['EICAR-Test-File'])).toBe(
      'Malware found: EICAR-Test-File, deleted',
    );
    expect(scanStateText(scanStateOf({ scan: 'failed' }, createdAt, at(1)))).toBe(
      'Could not be checked',
    );
    expect(scanStateText(scanStateOf({ scan: 'unsupported' }, createdAt, at(1)))).toBe(
      'Could not be checked',
    );
  });
});

describe('a file link, by scan state and by the deployment’s setting', () => {
  const code = (scan: Parameters<typeof linkRefusal>[0]['scan'], mode: 'guardduty' | 'off') =>
    linkRefusal({ scan }, mode)?.code ?? 'link';

  it('with scanning on: a link for a clean file only', () => {
    expect(code('clean', 'guardduty')).toBe('link');
    expect(code('pending', 'guardduty')).toBe('file_not_scanned');
    expect(linkRefusal({ scan: 'pending' }, 'guardduty')).toMatchObject({ retryAfterSeconds: 30 });
    expect(code('infected', 'guardduty')).toBe('file_infected');
    expect(code('unsupported', 'guardduty')).toBe('file_scan_failed');
    expect(code('failed', 'guardduty')).toBe('file_scan_failed');
    // Stored before scanning was on: no clean tag, so the bucket would refuse it too.
    expect(code(undefined, 'guardduty')).toBe('file_not_scanned');
  });

  it('with scanning off: a link for a file never scanned, and for one left pending when it was turned off', () => {
    expect(code(undefined, 'off')).toBe('link');
    expect(code('not_scanned', 'off')).toBe('link');
    expect(code('pending', 'off')).toBe('link');
    expect(code('clean', 'off')).toBe('link');
    // A verdict stays: an infected file was deleted, one not checked stays refused.
    expect(code('infected', 'off')).toBe('file_infected');
    expect(code('failed', 'off')).toBe('file_scan_failed');
  });
});
