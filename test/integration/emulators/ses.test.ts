import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SesHandle, startSes } from '#lib/local/emulators/ses.ts';
import { LOCAL_CREDENTIALS, REGION } from './aws.ts';
import { expectLoopbackOnly } from './loopback.ts';

interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

describe('SES emulator', () => {
  let ses: SesHandle;
  let client: SESv2Client;

  beforeAll(async () => {
    ses = await startSes({ port: 0 });
    client = new SESv2Client({
      endpoint: ses.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
    });
    console.info(`SES emulator ready in ${ses.startupMs} ms`);
  });

  afterAll(async () => {
    client?.destroy();
    await ses?.stop();
  });

  it('captures mail sent with SendEmail and lists it at /store', async () => {
    const subject = `New submission ${Date.now()}`;
    const { MessageId } = await client.send(
      new SendEmailCommand({
        FromEmailAddress: 'forms@example.com',
        Destination: { ToAddresses: ['owner@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: subject },
            Body: { Text: { Data: 'name: Ada' } },
          },
        },
      }),
    );

    const response = await fetch(ses.storeUrl);
    expect(response.status).toBe(200);
    const { emails } = (await response.json()) as { emails: StoredEmail[] };
    const sent = emails.find((email) => email.subject === subject);

    expect(sent).toMatchObject({
      messageId: MessageId,
      from: 'forms@example.com',
      destination: { to: ['owner@example.com'] },
      body: { text: 'name: Ada' },
    });
  });

  it('serves the web inbox at inboxUrl', async () => {
    const response = await fetch(ses.inboxUrl);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
  });

  it('accepts connections on 127.0.0.1 only', async () => {
    await expectLoopbackOnly(ses.port);
  });

  it('refuses a port that is already taken', async () => {
    await expect(startSes({ port: ses.port })).rejects.toThrow(
      `port ${ses.port} (SES) is already in use: stop the other process or choose another port with --ses-port`,
    );
  });
});
