import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailMessage } from '#domain/email-messages.ts';
import { type SesHandle, startSes } from '#lib/local/emulators/ses.ts';
import type { SentEmail } from '#test/support/delivery.ts';
import { LOCAL_CREDENTIALS, REGION } from './emulators/aws.ts';

/** What the emulator keeps of each SendEmail (aws-ses-v2-local's store, `GET /store`). */
type StoredEmail = SentEmail;

/** mailparser (the emulator's own parser), read as a mail reader would read our headers. */
interface ParsedAddress {
  value: { name: string; address: string }[];
}
interface MailParser {
  simpleParser(source: string): Promise<{ from?: ParsedAddress; replyTo?: ParsedAddress }>;
}
const { simpleParser } = createRequire(import.meta.url)('mailparser') as MailParser;

type Sender = typeof import('#aws/email.ts');

const SENDER = { address: 'forms@example.com' };

describe('sendEmail through the local SES emulator', () => {
  let ses: SesHandle;
  let sender: Sender;

  beforeAll(async () => {
    ses = await startSes({ port: 0 });
    // What the local stack and Lambda give the function: the client reads them when created.
    process.env.AWS_ENDPOINT_URL_SESV2 = ses.endpoint;
    process.env.AWS_REGION = REGION;
    process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
    sender = await import('#aws/email.ts');
  });

  afterAll(async () => {
    await ses?.stop();
  });

  async function stored(messageId: string): Promise<StoredEmail> {
    const response = await fetch(ses.storeUrl);
    expect(response.status).toBe(200);
    const { emails } = (await response.json()) as { emails: StoredEmail[] };
    const email = emails.find((candidate) => candidate.messageId === messageId);
    if (!email) throw new Error(`message ${messageId} is not in the emulator's store`);
    return email;
  }

  it('sends subject, From, Reply-To, text and HTML as given', async () => {
    const message: EmailMessage = {
      to: 'owner@example.com',
      fromName: 'Acme Forms',
      replyTo: 'ada@example.com',
      subject: 'New submission: Contact',
      text: 'Name: Ada\nMessage: Hello\n',
      html: '<p>Name: Ada</p>\n<p>Message: Hello</p>',
      autoSubmitted: 'auto-generated',
    };
    const { messageId } = await sender.sendEmail(message, SENDER);
    expect(messageId).not.toBe('');

    const email = await stored(messageId);
    expect(email).toMatchObject({
      from: '"Acme Forms" <forms@example.com>',
      replyTo: ['ada@example.com'],
      destination: { to: ['owner@example.com'], cc: [], bcc: [] },
      subject: 'New submission: Contact',
      body: { text: message.text, html: message.html },
    });
    expect(email.headers).toEqual([
      { name: 'Auto-Submitted', value: 'auto-generated' },
      { name: 'X-Auto-Response-Suppress', value: 'All' },
    ]);
  });

  it('sends no Reply-To and no extra headers when the message has none', async () => {
    const { messageId } = await sender.sendEmail(
      {
        to: 'owner@example.com',
        fromName: 'Acme Forms',
        subject: 'Plain',
        text: 'text',
        html: '<p>text</p>',
      },
      SENDER,
    );
    const email = await stored(messageId);
    expect(email.replyTo).toEqual([]);
    expect(email.headers).toBeUndefined();
  });

  it('keeps a UTF-8 display name, subject and bodies intact', async () => {
    const message: EmailMessage = {
      to: 'owner@example.com',
      fromName: 'Zoë’s Café 🍰 — Formulaire de contact très long pour tester le découpage',
      replyTo: 'ada@xn--bcher-kva.de',
      subject: 'Nouvelle réponse : Café 🍰 «Contact»',
      text: 'Prénom : Zoë\nMessage : ça marche ✓\n',
      html: '<p>Prénom : Zoë</p><p>Message : ça marche ✓</p>',
      autoSubmitted: 'auto-replied',
    };
    const { messageId } = await sender.sendEmail(message, SENDER);
    const email = await stored(messageId);

    // SES accepts only 7-bit ASCII in FromEmailAddress: the name travels as RFC 2047 words.
    expect(email.from).toMatch(/^[\x20-\x7e]+$/);
    expect(email.from).toMatch(/^(=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= )+<forms@example\.com>$/);
    expect(email.subject).toBe(message.subject);
    expect(email.body).toEqual({ text: message.text, html: message.html });
    expect(email.headers).toContainEqual({ name: 'Auto-Submitted', value: 'auto-replied' });

    // A mail reader decodes the From and Reply-To headers back to what the owner wrote.
    const parsed = await simpleParser(
      `From: ${email.from}\r\nReply-To: ${email.replyTo.join(', ')}\r\n\r\n`,
    );
    expect(parsed.from?.value).toEqual([{ name: message.fromName, address: 'forms@example.com' }]);
    // The Reply-To travels in punycode (ASCII, as SES requires); readers show it in Unicode.
    expect(email.replyTo).toEqual(['ada@xn--bcher-kva.de']);
    expect(parsed.replyTo?.value).toEqual([{ name: '', address: 'ada@bücher.de' }]);
  });

  it('keeps a header injection attempt on one line', async () => {
    const { messageId } = await sender.sendEmail(
      {
        to: 'owner@example.com',
        fromName: 'Forms\r\nBcc: victim@example.com',
        subject: 'Hi\r\nBcc: victim@example.com',
        text: 'text',
        html: '<p>text</p>',
      },
      SENDER,
    );
    const email = await stored(messageId);
    expect(email.subject).toBe('Hi Bcc: victim@example.com');
    expect(email.from).toBe('"Forms Bcc: victim@example.com" <forms@example.com>');
    expect(email.destination).toEqual({ to: ['owner@example.com'], cc: [], bcc: [] });
  });

  it('surfaces the emulator refusing a request as a permanent error', async () => {
    // The emulator answers 400 to a message without a subject, as SES does.
    const error = await sender
      .sendEmail(
        { to: 'owner@example.com', fromName: 'Acme', subject: '', text: 't', html: '<p>t</p>' },
        SENDER,
      )
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(Error);
    expect(sender.classifySendError(error)).toBe('permanent');
  });
});
