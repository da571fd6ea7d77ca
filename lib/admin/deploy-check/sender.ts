import type { GetEmailIdentityCommandOutput } from '@aws-sdk/client-sesv2';
import { type Answer, couldNotCheck, type Finding, finding } from './findings.ts';
import type { DeploySettings } from './settings.ts';

export type Identity = Pick<
  GetEmailIdentityCommandOutput,
  'IdentityType' | 'VerifiedForSendingStatus' | 'VerificationStatus' | 'DkimAttributes' | 'Tags'
>;

/** GetEmailIdentity's answers, by identity name. */
export type IdentityAnswers = Record<string, Answer<Identity>>;

type SenderSettings = Pick<
  DeploySettings,
  'emailSenderAddress' | 'sesIdentity' | 'emailDomain' | 'stackName'
>;

const domainOf = (address: string) => address.split('@')[1]?.toLowerCase() ?? '';
const within = (name: string, parent: string) => name === parent || name.endsWith(`.${parent}`);

/** Names reserved for examples and tests (RFC 2606, RFC 6761): nobody can verify them. */
const RESERVED = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

/**
 * The identities to read with GetEmailIdentity: the one the stack creates
 * (`emailDomain`), or the one it grants sending on (`sesIdentity`, else the
 * sender's domain), plus the sender's own address in that last case, so a
 * verified address without its domain can be told apart from nothing.
 */
export function identitiesToRead(settings: SenderSettings): string[] {
  const sender = settings.emailSenderAddress;
  if (!sender || RESERVED.test(domainOf(sender))) return [];
  if (settings.emailDomain) return [settings.emailDomain];
  if (settings.sesIdentity) return [settings.sesIdentity];
  return [domainOf(sender), sender];
}

const isNotFound = (answer: Answer<Identity> | undefined) =>
  answer !== undefined && !answer.ok && answer.error.name === 'NotFoundException';

/** CloudFormation tags what it creates with the stack's name. */
const createdBy = (identity: Identity, stackName: string) =>
  (identity.Tags ?? []).some(
    (tag) => tag.Key === 'aws:cloudformation:stack-name' && tag.Value === stackName,
  );

/**
 * Whether the stack can send as `emailSenderAddress` in `region`: the address
 * is set and can be verified, and the identity the stack sends as is verified
 * for sending, or, with `emailDomain`, can be created by the stack.
 */
export function senderFindings(
  settings: SenderSettings,
  answers: IdentityAnswers,
  region: string,
): Finding[] {
  const sender = settings.emailSenderAddress;
  if (!sender) {
    return [
      finding(
        'Sender',
        'sender.address',
        'blocker',
        'emailSenderAddress is not set: the stack refuses to synth without a sender, since mail from an address nobody verified is refused by SES.',
        'Set -c emailSenderAddress=forms@<your domain> (in cdk.json or on the command line): an address on a domain you can verify in SES, or on emailDomain.',
      ),
    ];
  }
  if (RESERVED.test(domainOf(sender))) {
    return [
      finding(
        'Sender',
        'sender.address',
        'blocker',
        `emailSenderAddress ${sender} is on a domain reserved for examples: nobody can verify it in SES, so every email would be refused.`,
        'Set -c emailSenderAddress to an address on a domain you own.',
      ),
    ];
  }
  const findings: Finding[] = [];
  if (settings.sesIdentity && !settings.emailDomain) {
    const identity = settings.sesIdentity.toLowerCase();
    const covered = identity.includes('@')
      ? identity === sender.toLowerCase()
      : within(domainOf(sender), identity);
    if (!covered) {
      findings.push(
        finding(
          'Sender',
          'sender.identity-match',
          'blocker',
          `emailSenderAddress ${sender} is not on sesIdentity ${settings.sesIdentity}: the stack may send only as that identity, and SES refuses a From address it does not cover.`,
          `Set -c sesIdentity to ${domainOf(sender)} or ${sender}, or pick a sender on ${settings.sesIdentity}.`,
        ),
      );
    }
  }
  if (settings.emailDomain) {
    findings.push(createdDomainFinding(settings.emailDomain, settings.stackName, answers, region));
    return findings;
  }
  const name = settings.sesIdentity || domainOf(sender);
  const answer = answers[name];
  if (!answer) return findings;
  if (isNotFound(answer)) {
    const address = answers[sender];
    if (!settings.sesIdentity && address?.ok && address.value.VerifiedForSendingStatus) {
      findings.push(
        finding(
          'Sender',
          'sender.identity',
          'blocker',
          `${sender} is verified in SES, but its domain ${name} is not an identity: the stack grants sending on the domain (no sesIdentity set), so SES would refuse every email as not authorized.`,
          `Set -c sesIdentity=${sender}, or verify the domain ${name} (or let the stack do it: -c emailDomain=${name}).`,
        ),
      );
    } else {
      findings.push(
        finding(
          'Sender',
          'sender.identity',
          'blocker',
          `${name} is not an SES identity in ${region}: SES refuses mail from ${sender} until it is verified there.`,
          `Verify it: aws sesv2 create-email-identity --email-identity ${name} --region ${region} (then publish its DKIM records), or let the stack create and verify the domain: -c emailDomain=${domainOf(sender)}.`,
        ),
      );
    }
    return findings;
  }
  if (!answer.ok) {
    findings.push(
      couldNotCheck(
        'Sender',
        'sender.identity',
        `the SES identity ${name}`,
        answer.error,
        'ses:GetEmailIdentity',
      ),
    );
    return findings;
  }
  findings.push(verificationFinding(name, answer.value, region));
  return findings;
}

function verificationFinding(name: string, identity: Identity, region: string): Finding {
  const domain = identity.IdentityType !== 'EMAIL_ADDRESS';
  const dkim = identity.DkimAttributes?.Status;
  if (identity.VerifiedForSendingStatus) {
    return finding(
      'Sender',
      'sender.identity',
      'ok',
      `${name} is verified for sending in ${region}${domain && dkim ? ` (DKIM ${dkim})` : ''}.`,
    );
  }
  return finding(
    'Sender',
    'sender.identity',
    'blocker',
    `${name} is an SES identity in ${region} but not verified for sending (verification ${identity.VerificationStatus ?? 'unknown'}${domain && dkim ? `, DKIM ${dkim}` : ''}): SES refuses mail from it.`,
    domain
      ? `Publish its three DKIM CNAME records (aws sesv2 get-email-identity --email-identity ${name} --query DkimAttributes.Tokens) and wait for SES to see them (minutes, up to 72 hours).`
      : `Open the link SES mailed to ${name} (resend it: aws sesv2 create-email-identity after deleting the identity).`,
  );
}

/**
 * With `emailDomain` the stack creates the domain identity itself
 * (AWS::SES::EmailIdentity). CloudFormation cannot create an identity that
 * already exists: the deploy fails on it and rolls back. The one exception is
 * the identity this stack created on an earlier deploy (CloudFormation tags it
 * with the stack's name): updating the stack keeps it.
 */
function createdDomainFinding(
  domain: string,
  stackName: string,
  answers: IdentityAnswers,
  region: string,
): Finding {
  const answer = answers[domain];
  if (answer === undefined || isNotFound(answer)) {
    return finding(
      'Sender',
      'sender.identity',
      'ok',
      `The stack creates the SES identity ${domain} in ${region} (Easy DKIM, MAIL FROM bounce.${domain}); mail goes out once SES sees its DNS records (written to the hosted zone when one is set, else add the stack's outputs).`,
    );
  }
  if (!answer.ok) {
    return couldNotCheck(
      'Sender',
      'sender.identity',
      `whether the SES identity ${domain} exists`,
      answer.error,
      'ses:GetEmailIdentity',
    );
  }
  if (createdBy(answer.value, stackName)) {
    return finding(
      'Sender',
      'sender.identity',
      'ok',
      `The SES identity ${domain} is this stack's own (${stackName} created it): a deploy keeps it${answer.value.VerifiedForSendingStatus ? ', verified for sending' : ', not yet verified for sending'}.`,
    );
  }
  return finding(
    'Sender',
    'sender.identity-exists',
    'blocker',
    `The SES identity ${domain} already exists in ${region}${answer.value.VerifiedForSendingStatus ? ' (verified)' : ''}, made outside this stack: with emailDomain the stack creates it, and CloudFormation fails on an identity that exists, rolling the deploy back.`,
    `Keep yours and drop the stack's: remove emailDomain and set -c sesIdentity=${domain} (its DNS records stay yours to manage); or delete it (aws sesv2 delete-email-identity --email-identity ${domain} --region ${region}) and let the stack create it, with new DKIM records.`,
  );
}
