import type { GetAccountCommandOutput } from '@aws-sdk/client-sesv2';
import { type Answer, couldNotCheck, type Finding, finding } from './findings.ts';

type Account = Pick<
  GetAccountCommandOutput,
  'ProductionAccessEnabled' | 'SendingEnabled' | 'EnforcementStatus' | 'SendQuota' | 'Details'
>;

const REQUEST_PRODUCTION =
  'Request production access: SES console → Account dashboard → Request production access, or ' +
  'aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL ' +
  '--website-url https://<your site> --use-case-description "<what you send>" (AWS usually answers within 24 hours).';

const number = (n: number | undefined) => (n ?? 0).toLocaleString('en-US');

/**
 * The SES account in the stack's Region (SESv2 GetAccount): whether it sends
 * at all, and to whom. In the sandbox SES delivers only to verified
 * addresses, and refuses the rest permanently (docs/delivery.md#ses-failures).
 */
export function sesAccountFindings(answer: Answer<Account>): Finding[] {
  if (!answer.ok) {
    return [
      couldNotCheck(
        'SES account',
        'ses.account',
        'the SES account',
        answer.error,
        'ses:GetAccount',
      ),
    ];
  }
  const account = answer.value;
  const quota = account.SendQuota;
  const findings: Finding[] = [];
  if (account.SendingEnabled === false || account.EnforcementStatus === 'SHUTDOWN') {
    findings.push(
      finding(
        'SES account',
        'ses.sending',
        'blocker',
        `SES sending is paused for this account in this Region (SendingEnabled ${account.SendingEnabled ?? 'unknown'}, enforcement status ${account.EnforcementStatus ?? 'unknown'}): every email, sign-in links included, would be refused.`,
        account.EnforcementStatus === 'SHUTDOWN'
          ? 'Read the notice in the SES console (Reputation metrics), fix its cause, and ask AWS Support to resume sending.'
          : 'Resume sending: aws sesv2 put-account-sending-attributes --sending-enabled',
      ),
    );
  } else if (account.EnforcementStatus === 'PROBATION') {
    findings.push(
      finding(
        'SES account',
        'ses.sending',
        'warning',
        'SES has this account under review (enforcement status PROBATION): more bounces or complaints can pause its sending.',
        'Read the notice in the SES console (Reputation metrics) and fix its cause before sending more.',
      ),
    );
  } else {
    findings.push(
      finding(
        'SES account',
        'ses.sending',
        'ok',
        `SES sending is enabled (enforcement status ${account.EnforcementStatus ?? 'HEALTHY'}).`,
      ),
    );
  }
  const quotaText = `${number(quota?.Max24HourSend)} emails a day, ${number(quota?.MaxSendRate)} a second, ${number(quota?.SentLast24Hours)} sent in the last 24 hours`;
  if (account.ProductionAccessEnabled) {
    findings.push(
      finding(
        'SES account',
        'ses.production',
        'ok',
        `SES production access: mail goes to any address; quota ${quotaText}.`,
      ),
    );
  } else {
    const review = account.Details?.ReviewDetails;
    const pending = review?.Status === 'PENDING';
    findings.push(
      finding(
        'SES account',
        'ses.production',
        'warning',
        `SES is in the sandbox in this Region: only verified addresses receive mail (owners' notifications, auto-replies and sign-in links to anyone else are refused), quota ${quotaText}.${
          review?.Status
            ? ` A production access request is ${review.Status}${review.CaseId ? ` (case ${review.CaseId})` : ''}.`
            : ''
        }`,
        pending
          ? 'Wait for the review; until then verify each address that must receive mail (aws sesv2 create-email-identity --email-identity <address>).'
          : REQUEST_PRODUCTION,
      ),
    );
  }
  return findings;
}
