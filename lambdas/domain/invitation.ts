import { type EmailMessage, headerValue } from './email-messages.ts';
import { html } from './html.ts';

/**
 * The team invitation (docs/people.md#invitations): an email of its own,
 * not a sign-in email: who invited whom to which team, one link that works
 * once for 7 days, and no code (a 6-digit code living 7 days would be
 * guessed in time). Every name is the owner's or a member's writing: escaped
 * in the HTML, one line without controls in the subject.
 */

/** An invitation's link works once, for this long. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Who invited: the member who asked (name and address), or nobody named (an operator's key). */
export interface Inviter {
  name?: string;
  email?: string;
}

/** A name in an email's text: one line, no hidden characters, bounded. */
const oneLine = (text: string, max = 200) => headerValue(text, max);

/** "Ada Lovelace (ada@example.com)", "ada@example.com", or "The team's owner". */
export function inviterWords(inviter: Inviter): string {
  const name = oneLine(inviter.name ?? '');
  const email = oneLine(inviter.email ?? '', 254);
  if (name && email && name.toLowerCase() !== email.toLowerCase()) return `${name} (${email})`;
  return name || email || 'An owner of the team';
}

export function invitationEmail(input: {
  to: string;
  baseUrl: string;
  token: string;
  /** The team invited to: the link signs the invitee in there, whatever team they used last. */
  teamId: string;
  teamName: string;
  inviter: Inviter;
  /** When the link stops working. */
  endsAt: Date;
}): EmailMessage {
  const link = `${input.baseUrl}/app/sign-in#token=${input.token}&team=${encodeURIComponent(input.teamId)}`;
  const team = oneLine(input.teamName) || 'a team';
  const who = inviterWords(input.inviter);
  const until = `${input.endsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const signIn = `${input.baseUrl}/app/sign-in`;
  const text = [
    `${who} invited you to join the team “${team}” on the form service at ${input.baseUrl}.`,
    '',
    'Accept the invitation (it signs you in as this address):',
    '',
    link,
    '',
    `The link works once, for 7 days (until ${until}). After that, sign in at ${signIn} with this address, or ask for a new invitation.`,
    '',
    'Not expecting it? Nothing happens unless you follow the link.',
  ].join('\n');
  const page = html`<!doctype html><html><body style="font-family:sans-serif">
<p>${who} invited you to join the team <strong>“${team}”</strong> on the form service at ${input.baseUrl}.</p>
<p><a href="${link}">Accept the invitation</a> (it signs you in as this address)</p>
<p>The link works once, for 7 days (until ${until}). After that, sign in at <a href="${signIn}">${signIn}</a> with this address, or ask for a new invitation.</p>
<p>Not expecting it? Nothing happens unless you follow the link.</p>
</body></html>`;
  return {
    to: input.to,
    fromName: 'Form service',
    subject: headerValue(`${who} invited you to the team “${team}”`),
    text,
    html: page.text,
    autoSubmitted: 'auto-generated',
  };
}
