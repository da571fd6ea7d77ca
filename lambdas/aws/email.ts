import { SESv2Client, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { sdkLogger } from '#aws/sdk-logger.ts';
import { type EmailMessage, headerValue, MAX_FROM_NAME_LENGTH } from '#domain/email-messages.ts';

// Created once per container; AWS_ENDPOINT_URL_SESV2 points it at the local emulator.
const ses = new SESv2Client({ logger: sdkLogger });

/**
 * Sends one email through SES v2 (`Simple` content: SES builds the MIME
 * message, encodes the UTF-8 subject and bodies and signs it) from the
 * deployment's `sender.address`, shown under the message's `fromName`.
 * Throws what the SDK throws: `classifySendError` says whether to retry.
 */
export async function sendEmail(
  message: EmailMessage,
  sender: { address: string },
  tracking?: {
    configurationSet?: string;
    tags?: { Name: string; Value: string }[];
    /** The SES tenant it is sent as (the team's). */
    tenantName?: string;
  },
): Promise<{ messageId: string }> {
  const input: SendEmailCommandInput = {
    ConfigurationSetName: tracking?.configurationSet,
    EmailTags: tracking?.configurationSet ? tracking.tags : undefined,
    TenantName: tracking?.tenantName,
    FromEmailAddress: fromAddress(message.fromName, sender.address),
    Destination: {
      ToAddresses: [message.to],
      CcAddresses: message.cc && message.cc.length > 0 ? message.cc : undefined,
    },
    ReplyToAddresses: message.replyTo ? [message.replyTo] : undefined,
    Content: {
      Simple: {
        Subject: { Data: headerValue(message.subject), Charset: 'UTF-8' },
        Body: {
          Text: { Data: message.text, Charset: 'UTF-8' },
          Html: { Data: message.html, Charset: 'UTF-8' },
        },
        Headers: message.autoSubmitted
          ? [
              { Name: 'Auto-Submitted', Value: message.autoSubmitted },
              // Exchange and Outlook ignore Auto-Submitted; this keeps their out-of-office quiet.
              { Name: 'X-Auto-Response-Suppress', Value: 'All' },
            ]
          : undefined,
      },
    },
  };
  const { MessageId } = await ses.send(new SendEmailCommand(input));
  return { messageId: MessageId ?? '' };
}

// Printable ASCII that needs neither quoting tricks nor encoding inside a quoted string.
const PLAIN_NAME = /^[\x20-\x7e]*$/;
// UTF-8 bytes per encoded word: 45 bytes are 60 base64 characters, and
// `=?UTF-8?B?` + 60 + `?=` is 72, inside RFC 2047's 75.
const WORD_BYTES = 45;

/**
 * The `From` value SES takes: `"Name" <address>`, or only the address when
 * the name is empty. SES speaks no SMTPUTF8, so a name that is not plain
 * ASCII is sent as RFC 2047 encoded words (`=?UTF-8?B?…?=`, each under 75
 * characters, split between characters) outside quotes. A name holding `"`,
 * `\` or `=?` is encoded too, rather than backslash-escaped in a quoted
 * string, so no parser along the way can read it differently. The name is
 * first made one line (`headerValue`), so it cannot end the header.
 */
export function fromAddress(displayName: string, address: string): string {
  const name = headerValue(displayName, MAX_FROM_NAME_LENGTH);
  const mailbox = address.trim();
  if (name === '') return mailbox;
  if (PLAIN_NAME.test(name) && !/["\\]|=\?/.test(name)) return `"${name}" <${mailbox}>`;
  return `${encodedWords(name)} <${mailbox}>`;
}

/** RFC 2047 B-encoded words of `text`, never splitting a character between two words. */
export function encodedWords(text: string): string {
  const words: string[] = [];
  let chunk: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    words.push(`=?UTF-8?B?${Buffer.concat(chunk).toString('base64')}?=`);
    chunk = [];
    size = 0;
  };
  for (const char of text) {
    const bytes = Buffer.from(char, 'utf8');
    if (size + bytes.length > WORD_BYTES) flush();
    chunk.push(bytes);
    size += bytes.length;
  }
  flush();
  // Whitespace between adjacent encoded words is dropped when they are decoded.
  return words.join(' ');
}

export type SendFailure = 'permanent' | 'transient';

/**
 * Errors that no retry of the same message cures: SES refused this message
 * (content, an address SES will not send to, the sandbox's unverified
 * recipient), the request is invalid, or the deployment's sending identity or
 * account cannot send (an unverified MAIL FROM domain, a missing
 * configuration set, a suspended account: AWS lifts a suspension only after a
 * review, and until then messages would only pile up and expire).
 */
const PERMANENT = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'NotFoundException',
  'BadRequestException',
  'ValidationException',
  'InvalidParameterValue',
  'AccountSuspendedException',
]);

/**
 * Errors that a later attempt can get past: throttling and quotas, SES's own
 * failures, and paused sending. `SendingPausedException` means an operator (or
 * SES, for reputation) paused sending for the account or the configuration
 * set; resuming it is an operator's action, so its messages are retried and
 * then kept in the dead-letter queue to be redriven, not dropped.
 */
const TRANSIENT = new Set([
  'TooManyRequestsException',
  'LimitExceededException',
  'SendingPausedException',
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestLimitExceeded',
  'InternalServiceErrorException',
  'InternalFailure',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'ConcurrentModificationException',
]);

/**
 * Whether a failed `sendEmail` is worth retrying. Known SES error names decide
 * first; then the SDK's hints: a retryable error, a server fault, HTTP 408,
 * 429 or 5xx are transient, and so are 401 and 403 (the function's role or
 * credentials are wrong: a deployment fix, after which the dead-lettered
 * messages can be redriven). Any other 4xx is permanent. An error with no
 * HTTP status (a network error, a timeout, credentials that could not be
 * loaded) or something that is not an error at all is transient: retrying
 * is the safe side, and the dead-letter queue bounds it.
 */
export function classifySendError(error: unknown): SendFailure {
  if (typeof error !== 'object' || error === null) return 'transient';
  const { name, $metadata, $fault, $retryable } = error as {
    name?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    $fault?: unknown;
    $retryable?: unknown;
  };
  if (typeof name === 'string') {
    if (PERMANENT.has(name)) return 'permanent';
    if (TRANSIENT.has(name)) return 'transient';
  }
  if ($retryable || $fault === 'server') return 'transient';
  const status = $metadata?.httpStatusCode;
  if (typeof status !== 'number') return 'transient';
  if (status === 401 || status === 403 || status === 408 || status === 429) return 'transient';
  if (status >= 500) return 'transient';
  return status >= 400 ? 'permanent' : 'transient';
}
