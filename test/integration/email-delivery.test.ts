import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, inject, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import {
  emailsReaching,
  emailsTo,
  eventually,
  localSqs,
  type SentEmail,
  untilEmailQueueDrained,
} from '#test/support/delivery.ts';
import { forceFormAttributes, newForm, type TestForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { asSent, scannerSetting } from '#test/support/uploads.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

/**
 * Issue 13, "Done when" 4: the emails a stored submission causes, end to end
 * through the local stack (stream → fan-out → emails queue → email worker →
 * the SES emulator, whose store the tests read).
 */

const unique = () => crypto.randomUUID().slice(0, 8);
const address = (who: string) => `${who}-${unique()}@example.com`;

/** The emails to `to` that name the submission (`Submission: <id>` is in every notification). */
const aboutSubmission = (list: SentEmail[], submissionId: string) =>
  list.filter((email) => email.body.text?.includes(`Submission: ${submissionId}`));

/** Waits for the first email to `to` for which `match` holds; fails the test when none comes. */
async function firstEmail(
  to: string,
  match: (email: SentEmail) => boolean = () => true,
): Promise<SentEmail> {
  const list = await eventually(
    () => emailsTo(to),
    (emails) => emails.some(match),
  );
  const found = list.find(match);
  if (!found) throw new Error(`no email to ${to} arrived`);
  return found;
}

async function post(form: TestForm, json: Record<string, unknown>): Promise<string> {
  const response = await submit(form.key, { json, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  const id = response.body?.submissionId;
  expect(id).toEqual(expect.any(String));
  return id as string;
}

/** A multipart/form-data body written out: text parts as given, then one file part. */
function multipartBody(
  texts: [string, string][],
  file: { field: string; name: string; type: string; bytes: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----email-test-${unique()}`;
  const quoted = (value: string) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
  const parts: Buffer[] = texts.map(([name, value]) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`,
    ),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; ` +
        `filename=${quoted(file.name)}\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------------------
// The emails queue, straight

const sqs = localSqs;

const emailQueueUrl = () => inject('localStack').queues.emails!.url;

type EmailJob = { formId: string; submissionId: string; kind: 'notification' | 'autoreply' };

async function sendJobs(client: SQSClient, jobs: EmailJob[]): Promise<void> {
  if (jobs.length === 1) {
    await client.send(
      new SendMessageCommand({ QueueUrl: emailQueueUrl(), MessageBody: JSON.stringify(jobs[0]) }),
    );
    return;
  }
  const sent = await client.send(
    new SendMessageBatchCommand({
      QueueUrl: emailQueueUrl(),
      Entries: jobs.map((job, i) => ({ Id: String(i), MessageBody: JSON.stringify(job) })),
    }),
  );
  expect(sent.Failed ?? []).toEqual([]);
}

// ---------------------------------------------------------------------------

describe('notification subject and Reply-To', () => {
  it('fills {{form.name}}, {{form.id}}, {{submission.id}}, {{submission.createdAt}} and {{field.x}} in notifySubject', async () => {
    const owner = address('owner');
    const form = await newForm(
      'pro',
      {
        notifyEmail: owner,
        notifySubject:
          '{{form.name}} | {{ form.id }} | {{submission.id}} | {{submission.createdAt}} | {{field.topic}} | {{field.absent}}|',
        fields: [{ id: 'topic', type: 'text', label: 'Topic' }],
      },
      { name: 'Placeholder form', type: 'custom' },
    );
    const id = await post(form, { topic: 'Billing question' });
    const { submissions } = await localStore();
    const stored = await submissions.getSubmission(form.id, id);
    expect(stored?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);

    const mail = await firstEmail(owner);
    expect(mail.subject).toBe(
      `Placeholder form | ${form.id} | ${id} | ${stored!.createdAt} | Billing question | |`,
    );
    expect(mail.destination).toEqual({ to: [owner], cc: [], bcc: [] });
    expect(mail.from).toBe('"Form Service" <forms@example.com>');
  });

  it('a form saved before unknown placeholders were refused still loads and sends, the unknown ones filled with nothing', async () => {
    const owner = address('owner');
    const visitor = address('visitor');
    const form = await newForm('pro', { notifyEmail: owner, autoreplyEnabled: true });
    // As stored before the PATCH refused them (issue 29: "Thanks, {{name}}" went out with its braces).
    await forceFormAttributes(form.id, {
      notifySubject: 'Lead {{name}} for {{form.name}}',
      autoreplySubject: 'Thanks, {{name}}',
      autoreplyBody: 'Hello {{ first }},\nwe got it.',
    });
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.status, read.text).toBe(200);
    expect(read.body.autoreplySubject).toBe('Thanks, {{name}}');

    const id = await post(form, { name: 'Ada', email: visitor });
    const notification = await firstEmail(owner);
    expect(notification.subject).toBe('Lead  for Submit test');
    const reply = await firstEmail(visitor);
    expect(reply.subject).toBe('Thanks,');
    expect(reply.body.text).toBe('Hello ,\nwe got it.\n');
    for (const mail of [notification, reply]) expect(mail.body.html).not.toContain('{{');
    expect(notification.body.text).toContain(`Submission: ${id}`);
  });

  it('_subject overrides notifySubject; without it notifySubject is used', async () => {
    const owner = address('owner');
    const form = await newForm('pro', {
      notifyEmail: owner,
      notifySubject: 'Form subject {{field.topic}}',
    });
    const withHint = await post(form, { topic: 'A', _subject: 'Visitor subject {{form.name}}' });
    const without = await post(form, { topic: 'B' });

    const mails = await eventually(
      () => emailsTo(owner),
      (list) => list.length >= 2,
    );
    const [hinted] = aboutSubmission(mails, withHint);
    const [plain] = aboutSubmission(mails, without);
    // The visitor's subject is text: placeholders in it are not filled.
    expect(hinted?.subject).toBe('Visitor subject {{form.name}}');
    expect(plain?.subject).toBe('Form subject B');
    // _subject is not an answer.
    expect(hinted?.body.text).not.toContain('Visitor subject');
  });

  it('Reply-To is _replyto, else the first email-type field in field order; the auto-reply answers to the notification recipient', async () => {
    const owner = address('owner');
    const form = await newForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      autoreplySubject: 'Thanks {{field.name}}',
      autoreplyAnswerPlaceholders: true,
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'work', type: 'email', label: 'Work email' },
        { id: 'home', type: 'email', label: 'Home email' },
      ],
    });
    const hinted = address('hinted');
    const work = address('work');
    const home = address('home');
    const loose = address('loose');
    // `email` is not a field of the form: an email-type field comes first.
    const viaHint = await post(form, { name: 'Hint', work, _replyto: hinted });
    const viaField = await post(form, { email: loose, home, work, name: 'Field' });

    const mails = await eventually(
      () => emailsTo(owner),
      (list) => list.length >= 2,
    );
    expect(aboutSubmission(mails, viaHint).map((mail) => mail.replyTo)).toEqual([[hinted]]);
    expect(aboutSubmission(mails, viaField).map((mail) => mail.replyTo)).toEqual([[work]]);

    // The auto-replies go to the submitter address and answer to the owner.
    const toHinted = await firstEmail(hinted);
    expect(toHinted).toMatchObject({ subject: 'Thanks Hint', replyTo: [owner] });
    expect(toHinted.destination).toEqual({ to: [hinted], cc: [], bcc: [] });
    const toWork = await eventually(
      () => emailsTo(work),
      (list) => list.some((mail) => mail.subject === 'Thanks Field'),
    );
    expect(toWork.find((mail) => mail.subject === 'Thanks Field')?.replyTo).toEqual([owner]);
    // Neither the other field nor the loose `email` answer got one.
    expect(await emailsTo(home)).toEqual([]);
    expect(await emailsTo(loose)).toEqual([]);
    // The first submission's work address was not its submitter address: _replyto was.
    expect(toWork.map((mail) => mail.subject)).toEqual(['Thanks Field']);
  });
});

describe('the HTML part escapes what visitors and owners wrote', () => {
  it('answers, labels, answer names, file names and the form name with <script>, & and quotes', async () => {
    const owner = address('owner');
    const formName = `<script>alert("form")</script> & 'Co'`;
    const form = await newForm(
      'pro',
      {
        notifyEmail: owner,
        allowUploads: true,
        fields: [
          { id: 'message', type: 'textarea', label: `<img src=x onerror=alert('label')> & "Msg"` },
        ],
      },
      { name: formName, type: 'custom' },
    );
    // The file is still being checked for malware when the notification goes out.
    await scannerSetting(form.id, { delayMs: 120_000 });
    // Double quotes included: undici's FormData would percent-encode them, so the part is written here.
    const fileName = `<img src=x onerror=alert(1)> & "q" 'x'.txt`;
    const fileBytes = Buffer.alloc(1536, 'a');
    const body = multipartBody(
      [
        ['message', `Tom & "Jerry" <script>alert('answer')</script>\nline 2`],
        ['<i>extra</i>', 'a < b > c'],
      ],
      { field: 'upload', name: fileName, type: 'text/plain', bytes: fileBytes },
    );
    const response = await submit(form.key, { ...body, from: freshVisitor() });
    expect(response.status, response.text).toBe(200);
    const id = response.body?.submissionId as string;
    const { submissions } = await localStore();
    expect(asSent((await submissions.getSubmission(form.id, id))?.meta.files)).toEqual([
      { field: 'upload', name: fileName, mime: 'text/plain', size: 1536 },
    ]);

    const mail = await firstEmail(owner);
    const html = mail.body.html ?? '';
    // Every piece, escaped as element content and quoted attributes need it.
    expect(html).toContain(
      '<h1 style="font-size:18px">New submission to &lt;script&gt;alert(&quot;form&quot;)&lt;/script&gt; &amp; &#39;Co&#39;</h1>',
    );
    expect(html).toContain(
      '<title>New submission: &lt;script&gt;alert(&quot;form&quot;)&lt;/script&gt; &amp; &#39;Co&#39;</title>',
    );
    expect(html).toContain(
      '<th align="left" valign="top">&lt;img src=x onerror=alert(&#39;label&#39;)&gt; &amp; &quot;Msg&quot;</th>',
    );
    expect(html).toContain(
      '<td>Tom &amp; &quot;Jerry&quot; &lt;script&gt;alert(&#39;answer&#39;)&lt;/script&gt;<br>\nline 2</td>',
    );
    expect(html).toContain(
      '<th align="left" valign="top">&lt;i&gt;extra&lt;/i&gt;</th><td>a &lt; b &gt; c</td>',
    );
    // The file by name and size, where its malware scan stands, and no link to it.
    expect(html).toContain(
      '<li>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;x&#39;.txt (1.5 KB): being checked for malware</li>',
    );
    expect(mail.body.text).toContain(`- ${fileName} (1.5 KB): being checked for malware`);
    expect(mail.body.text).toContain('1 file being checked for malware');
    const links = [...html.matchAll(/<a\s[^>]*>/g)].map((match) => match[0]);
    // One link: the submission's page in the dashboard.
    expect(links).toEqual([
      `<a href="${inject('localStack').baseUrl}/app/forms/${form.id}/submissions/${id}">`,
    ]);
    expect(html).not.toContain(`${form.id}/${id}`);
    expect(html).not.toContain('X-Amz-');
    // No markup of theirs survived as markup.
    for (const raw of ['<script', '<img', '<i>', `'Co'`, '"Jerry"', '"q"', `'x'`, '& ']) {
      expect(html, raw).not.toContain(raw);
    }
    // The subject (a header, not HTML) keeps the name as written.
    expect(mail.subject).toBe(`New submission: ${formName}`);
  });
});

describe('header injection', () => {
  it('a notifyFromName with CR or LF is refused with 400', async () => {
    const form = await newForm('pro');
    for (const notifyFromName of ['Acme\r\nBcc: victim@example.com', 'Acme\nBcc: x@example.com']) {
      const response = await api('PATCH', `/v1/forms/${form.id}`, {
        key: form.apiKey,
        body: { notifyFromName },
      });
      expect(response.status, notifyFromName).toBe(400);
    }
    const refusedSubject = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { notifySubject: 'Hi\r\nBcc: victim@example.com' },
    });
    expect(refusedSubject.status).toBe(400);
    const saved = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(saved.body.notifyFromName).toBe('Form Service');
  });

  it('_subject, _replyto, an answer and a form name with CRLF + Bcc: one-line subject, no Bcc/Cc, nothing to the victim', async () => {
    const victim = address('victim');
    const owner = address('owner');
    const visitor = address('visitor');
    const form = await newForm(
      'pro',
      {
        notifyEmail: owner,
        notifySubject: 'Topic: {{field.topic}} on {{form.name}}',
        autoreplyEnabled: true,
        autoreplySubject: 'Re: {{field.topic}}',
        autoreplyAnswerPlaceholders: true,
        fields: [
          { id: 'topic', type: 'text' },
          { id: 'email', type: 'email' },
        ],
      },
      // The create API takes a multi-line name (it is no header field); the emails must not care.
      { name: `Acme\r\nBcc: ${victim}`, type: 'custom' },
    );
    const viaHints = await post(form, {
      topic: 'first',
      email: visitor,
      _subject: `Hi\r\nBcc: ${victim}`,
      _replyto: `a@example.com\r\nBcc: ${victim}`,
    });
    const viaTemplate = await post(form, {
      topic: `Hello\r\nCc: ${victim}\nBcc: ${victim}`,
      email: visitor,
    });

    const mails = await eventually(
      () => emailsTo(owner),
      (list) => list.length >= 2,
    );
    const [hinted] = aboutSubmission(mails, viaHints);
    const [templated] = aboutSubmission(mails, viaTemplate);
    expect(hinted?.subject).toBe(`Hi Bcc: ${victim}`);
    expect(templated?.subject).toBe(
      `Topic: Hello Cc: ${victim} Bcc: ${victim} on Acme Bcc: ${victim}`,
    );
    // The broken _replyto is no address: Reply-To falls back to the email field.
    expect(hinted?.replyTo).toEqual([visitor]);
    const replies = await eventually(
      () => emailsTo(visitor),
      (list) => list.length >= 2,
    );
    const all = [...mails, ...replies];
    expect(replies.map((mail) => mail.subject).sort()).toEqual(
      ['Re: first', `Re: Hello Cc: ${victim} Bcc: ${victim}`].sort(),
    );
    for (const mail of all) {
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.from).not.toMatch(/[\r\n]/);
      expect(mail.replyTo.join()).not.toContain(victim);
      expect(mail.destination.cc).toEqual([]);
      expect(mail.destination.bcc).toEqual([]);
      expect(mail.destination.to).toHaveLength(1);
      expect(mail.destination.to).not.toContain(victim);
    }
    await untilEmailQueueDrained(sqs());
    expect(await emailsTo(victim)).toEqual([]);
    expect(await emailsTo('a@example.com')).toEqual([]);
  });
});

describe('the emails queue delivering a message more than once', () => {
  it('sends one email per submission and kind after the same message arrives twice more', async () => {
    const owner = address('owner');
    const visitor = address('visitor');
    const form = await newForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      fields: [{ id: 'email', type: 'email' }],
    });
    const id = await post(form, { email: visitor, note: 'once' });
    await firstEmail(owner, (mail) => aboutSubmission([mail], id).length > 0);
    await firstEmail(visitor);

    const client = sqs();
    const notification: EmailJob = { formId: form.id, submissionId: id, kind: 'notification' };
    const autoreply: EmailJob = { ...notification, kind: 'autoreply' };
    await sendJobs(client, [notification]);
    await sendJobs(client, [notification]);
    await sendJobs(client, [autoreply, autoreply]);
    await untilEmailQueueDrained(client);

    expect(aboutSubmission(await emailsTo(owner), id)).toHaveLength(1);
    expect(await emailsTo(owner)).toHaveLength(1);
    expect(await emailsTo(visitor)).toHaveLength(1);
  });
});

describe('several notification recipients (notifyCc)', () => {
  it('notifyEmail and two more each receive the notification, in one message; the same job again mails none of them twice', async () => {
    const [desk, sales, support] = [address('desk'), address('sales'), address('support')];
    const form = await newForm('pro', {
      notifyEmail: desk,
      // The second spelling of sales is kept once (the PATCH dedupes case-insensitively).
      notifyCc: [sales, support, sales.toUpperCase()],
    });
    const id = await post(form, { name: 'Ada', note: 'to three' });
    const received = await Promise.all(
      [desk, sales, support].map((who) =>
        eventually(
          () => emailsReaching(who),
          (list) => aboutSubmission(list, id).length > 0,
        ),
      ),
    );
    for (const list of received) expect(aboutSubmission(list, id)).toHaveLength(1);
    const [mail] = aboutSubmission(received[0]!, id);
    expect(mail!.destination).toEqual({ to: [desk], cc: [sales, support], bcc: [] });
    expect(new Set(received.map((list) => list[0]!.messageId)).size).toBe(1);

    const client = sqs();
    await sendJobs(client, [{ formId: form.id, submissionId: id, kind: 'notification' }]);
    await untilEmailQueueDrained(client);
    for (const who of [desk, sales, support]) {
      expect(aboutSubmission(await emailsReaching(who), id)).toHaveLength(1);
    }
  });
});

describe('spam', () => {
  it('is never emailed, even when a notification or auto-reply job for it reaches the queue', async () => {
    const owner = address('owner');
    const spammer = address('spammer');
    const form = await newForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      fields: [{ id: 'email', type: 'email' }],
    });
    const spamId = await post(form, {
      email: spammer,
      message: 'http://a.example http://b.example http://c.example',
    });
    const { submissions } = await localStore();
    expect((await submissions.getSubmission(form.id, spamId))?.isSpam).toBe(true);
    // A clean one after it shows the pipeline runs for this form (the stream keeps order).
    const cleanId = await post(form, { message: 'hello' });
    await firstEmail(owner, (mail) => aboutSubmission([mail], cleanId).length > 0);

    const client = sqs();
    await sendJobs(client, [
      { formId: form.id, submissionId: spamId, kind: 'notification' },
      { formId: form.id, submissionId: spamId, kind: 'autoreply' },
    ]);
    await untilEmailQueueDrained(client);

    const ownerMail = await emailsTo(owner);
    expect(aboutSubmission(ownerMail, spamId)).toEqual([]);
    expect(ownerMail).toHaveLength(1);
    expect(await emailsTo(spammer)).toEqual([]);
  });
});
