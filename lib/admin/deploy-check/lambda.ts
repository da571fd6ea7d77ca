import type { GetAccountSettingsCommandOutput } from '@aws-sdk/client-lambda';
import { type Answer, couldNotCheck, type Finding, finding } from './findings.ts';

/** What most accounts get; a new account often starts far lower (10). */
export const USUAL_CONCURRENCY_QUOTA = 1000;

/**
 * The unreserved concurrency Lambda keeps for functions without a
 * reservation: 100 (Lambda's PutFunctionConcurrency reference), or the whole
 * quota when that is below 100 — Lambda's refusal then reads "decreases
 * account's UnreservedConcurrentExecution below its minimum value of [10]" on
 * a quota of 10, and [50] on 50, so nothing at all can be reserved there.
 */
export const unreservedFloor = (quota: number) => Math.min(100, quota);

const count = (n: number) => n.toLocaleString('en-US');

const RAISE_QUOTA =
  'Ask for more in Service Quotas (AWS Lambda → Concurrent executions, quota code L-B99A9384): ' +
  'aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value 1000';

/**
 * The account's concurrency against the submit function's reservation
 * (`submitReservedConcurrency`): Lambda refuses a reservation that leaves
 * less than its floor unreserved, and CloudFormation then rolls the whole
 * first deploy back.
 */
export function concurrencyFindings(
  reservation: number,
  answer: Answer<Pick<GetAccountSettingsCommandOutput, 'AccountLimit'>>,
): Finding[] {
  if (!answer.ok) {
    return [
      couldNotCheck(
        'Lambda',
        'lambda.account',
        "the account's Lambda concurrency",
        answer.error,
        'lambda:GetAccountSettings',
      ),
    ];
  }
  const quota = answer.value.AccountLimit?.ConcurrentExecutions;
  const unreserved = answer.value.AccountLimit?.UnreservedConcurrentExecutions;
  if (quota === undefined || unreserved === undefined) {
    return [
      finding(
        'Lambda',
        'lambda.account',
        'warning',
        "Lambda's GetAccountSettings named no concurrency quota.",
        'Check the quota in the Service Quotas console.',
      ),
    ];
  }
  const findings: Finding[] = [];
  const floor = unreservedFloor(quota);
  const left = unreserved - reservation;
  const lowQuota = quota < USUAL_CONCURRENCY_QUOTA;
  if (reservation > 0 && left < floor) {
    const room = Math.max(0, unreserved - floor);
    findings.push(
      finding(
        'Lambda',
        'lambda.reservation',
        'blocker',
        `submitReservedConcurrency=${reservation} reserves ${
          left < 0
            ? `more than the account's ${count(unreserved)} unreserved concurrent executions`
            : `${count(reservation)} of the account's ${count(unreserved)} unreserved concurrent executions, leaving ${count(left)}`
        } (quota ${count(quota)}); Lambda keeps at least ${count(floor)} unreserved, so it refuses the reservation and the first deploy rolls back.`,
        `${
          room > 0
            ? `Set -c submitReservedConcurrency=0 (no reservation) or at most ${count(room)}`
            : 'Set -c submitReservedConcurrency=0 (no reservation): this account has no room to reserve any'
        }; or raise the quota${lowQuota ? ' (below)' : `. ${RAISE_QUOTA}`}.`,
      ),
    );
  } else {
    findings.push(
      finding(
        'Lambda',
        'lambda.reservation',
        'ok',
        reservation > 0
          ? `submitReservedConcurrency=${reservation} fits: ${count(left)} of ${count(unreserved)} unreserved concurrent executions stay for the other functions (Lambda keeps at least ${count(floor)}).`
          : `No reserved concurrency (submitReservedConcurrency=0): every function shares the account's ${count(unreserved)} unreserved concurrent executions.`,
      ),
    );
  }
  if (lowQuota) {
    findings.push(
      finding(
        'Lambda',
        'lambda.quota',
        'warning',
        `The account's Lambda quota is ${count(quota)} concurrent executions in this Region (the usual is ${count(USUAL_CONCURRENCY_QUOTA)}): every function of the stack shares them, so under load API requests beyond ${count(quota)} at once are throttled (429 Too Many Requests) and queue and stream workers fall behind.`,
        `${RAISE_QUOTA}.`,
      ),
    );
  } else {
    findings.push(
      finding(
        'Lambda',
        'lambda.quota',
        'ok',
        `Lambda quota: ${count(quota)} concurrent executions in this Region.`,
      ),
    );
  }
  return findings;
}
