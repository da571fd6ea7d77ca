/**
 * The test stack's compressed settings, which the global setup (global-setup.ts) gives the
 * stack and tests read. A module of its own without imports: a test file reading a value does
 * not load the setup's Chromium server, dev process and certificate code.
 */

/** The monthly spam cap per form of the test run's stack (the deployed default is 1,000). */
export const TEST_SPAM_CAP = 40;
/** The test stack's fill-time minimum, in milliseconds (the deployed default is 2,000). */
export const TEST_MIN_FILL_TIME_MS = 500;
/**
 * How long an Idempotency-Key answers its retries on the test stack, in seconds (the deployed
 * default is a day): long enough for a burst of retries, short enough to see it end.
 */
export const TEST_IDEMPOTENCY_WINDOW_SECONDS = 10;
/**
 * One day of a form's `retentionDays` on the test stack, in seconds (the deployed day is
 * 86,400): a submission of a form keeping 1 day is past its age this long after its receipt.
 */
export const TEST_RETENTION_DAY_SECONDS = 3;
/**
 * How long a confirmation link works on the test stack, in seconds (deployed: 48 hours): long
 * enough for an email to arrive and its link to be followed under the full suite's load, short
 * enough that a file sees a pending submission expire while its other tests run.
 */
export const TEST_CONFIRM_LINK_SECONDS = 30;
/**
 * How often a form with a retention is swept on the test stack, in seconds (deployed: 12 hours):
 * longer than a test day, so a test sees a submission hidden before a sweep deletes it.
 */
export const TEST_RETENTION_SWEEP_SECONDS = 10;
/**
 * How long a webhook receiver or Google has to answer on the test stack, in milliseconds (the
 * deployed 10 s): a hang is cut off in seconds, and an answer under the whole suite's load
 * still comes well within it.
 */
export const TEST_RECEIVER_TIMEOUT_MS = 3000;
/**
 * The test stack's webhook retry delays, in seconds: the first two growing (a test measures
 * that), the last long enough for a full schedule under a loaded machine. The retry window is
 * the delays' sum × 1.2 (lambdas/domain/webhook-delivery.ts), so the last retry is given up when
 * the first two came more than window − 1 − 3 s late in all: 6 s with [1, 2, 6] (3 s with the
 * earlier [1, 2, 3], which two test files running at once used up).
 */
export const TEST_WEBHOOK_RETRY_DELAYS = [1, 2, 6];
/**
 * When a file still waiting for its malware scan counts as late on the test stack, in seconds
 * (deployed: 30 minutes): the late check each such submission sends itself comes back within
 * seconds, so the scan results queue drains while a test watches it.
 */
export const TEST_SCAN_LATE_SECONDS = 5;
