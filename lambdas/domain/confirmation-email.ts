import {
  type EmailMessage,
  headerValue,
  htmlDocument,
  MAX_FROM_NAME_LENGTH,
  plausibleAddress,
} from './email-messages.ts';
import type { FormRecord } from './form-model.ts';
import { html } from './html.ts';
import type { Submission } from './submission-model.ts';

/**
 * The confirmation email (docs/delivery.md#confirmation-emails): plain words,
 * the form's name, the link and when it stops working. Everything the owner
 * or the visitor wrote is escaped in the HTML part; header values are one
 * line (headerValue strips CR and LF).
 */

/** The address a pending submission is confirmed at: its `confirmEmail` field's answer. */
export function confirmationAddress(
  submission: Pick<Submission, 'data'>,
  form: Pick<FormRecord, 'confirmEmail'>,
): string | undefined {
  const field = form.confirmEmail?.field;
  if (!field || !Object.hasOwn(submission.data, field)) return undefined;
  return plausibleAddress(submission.data[field]);
}

/** "28 November 2026 at 18:00 UTC": when the link stops working, in words. */
export function expiryWords(at: number): string {
  const date = new Date(at);
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = date.toISOString().slice(11, 16);
  return `${day} at ${time} UTC`;
}

export function confirmationEmail(input: {
  form: Pick<FormRecord, 'name' | 'notifyFromName'>;
  to: string;
  link: string;
  /** When the link stops working (ms). */
  expiresAt: number;
}): EmailMessage {
  const formName = headerValue(input.form.name, 200);
  const subject = headerValue(`Confirm your answer to ${formName}`);
  const expires = expiryWords(input.expiresAt);
  const lines = [
    `Someone sent an answer to the form "${formName}" with this email address.`,
    'If it was you, open this link and press "Confirm my answer":',
    '',
    input.link,
    '',
    `The link works until ${expires}. If you did not send this answer, ignore this email: without the click it is never confirmed.`,
  ];
  return {
    to: input.to,
    fromName: headerValue(input.form.notifyFromName, MAX_FROM_NAME_LENGTH),
    subject,
    autoSubmitted: 'auto-generated',
    text: `${lines.join('\n')}\n`,
    html: htmlDocument(
      subject,
      html`<p>Someone sent an answer to the form “${formName}” with this email address.</p>
<p>If it was you, open this link and press “Confirm my answer”:</p>
<p><a href="${input.link}">${input.link}</a></p>
<p>The link works until ${expires}. If you did not send this answer, ignore this email: without the click it is never confirmed.</p>`,
    ),
  };
}
