import { describe, expect, it } from 'vitest';
import {
  autoReply,
  fillPlaceholders,
  headerValue,
  humanSize,
  notificationRecipients,
  ownerNotification,
  plausibleAddress,
  submitterAddress,
} from '#domain/email-messages.ts';
import { defaultSettings } from '#domain/form-defaults.ts';
import type { FieldDefinition, FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';

const FORM_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const SUBMISSION_ID = '019a1b2c-3d4e-7f00-8a1b-2c3d4e5f6a7b';
const BASE_URL = 'https://forms.example.com/prod';
/** The submission's page in the dashboard, not the API's JSON for the form. */
const SUBMISSION_PAGE = `${BASE_URL}/app/forms/${FORM_ID}/submissions/${SUBMISSION_ID}`;

function formWith(overrides: Partial<FormRecord> = {}): FormRecord {
  return {
    ...defaultSettings('Contact', 'contact'),
    id: FORM_ID,
    teamId: 'team-1',
    userId: 'user-1',
    key: 'abcdefabcdef',
    captchaSecretKey: null,
    submissionCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function submissionWith(
  data: Record<string, string>,
  overrides: Partial<Submission> = {},
): Submission {
  return {
    id: SUBMISSION_ID,
    formId: FORM_ID,
    data,
    meta: { userAgent: 'test', referrer: '' },
    read: false,
    starred: false,
    isSpam: false,
    isTest: false,
    createdAt: '2026-03-04T05:06:07.089Z',
    ...overrides,
  };
}

/** An answers object whose own property order is exactly as given (no prototype games). */
function answers(entries: [string, string][]): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [name, value] of entries) {
    Object.defineProperty(data, name, { value, enumerable: true, writable: true });
  }
  return data;
}

const notify = (
  data: Record<string, string>,
  options: {
    form?: Partial<FormRecord>;
    submission?: Partial<Submission>;
    hints?: { subject?: string; replyTo?: string };
  } = {},
) =>
  ownerNotification({
    form: formWith(options.form),
    submission: submissionWith(data, options.submission),
    hints: options.hints,
    recipient: 'owner@example.com',
    baseUrl: BASE_URL,
  });

describe('headerValue', () => {
  it('makes any value one line: line breaks become a space, other controls go', () => {
    expect(headerValue('Hi\r\nBcc: victim@example.com')).toBe('Hi Bcc: victim@example.com');
    expect(headerValue('a\rb\nc\u2028d\u2029e\u0085f\tg')).toBe('a b c d e f g');
    expect(headerValue('bell\u0007null\u0000del\u007fc1\u009b')).toBe('bellnulldelc1');
    expect(headerValue('  \r\n padded \n ')).toBe('padded');
  });

  it('drops hidden characters: bidi controls, zero-width, BOM', () => {
    expect(headerValue('Invoice \u202Efdp.exe\u202C paid\u200B\uFEFF')).toBe(
      'Invoice fdp.exe paid',
    );
    expect(headerValue('\u061Cname')).toBe('name');
  });

  it('cuts to the limit in code points, never splitting a surrogate pair', () => {
    expect(headerValue('x'.repeat(5000))).toHaveLength(998);
    expect(headerValue('😀'.repeat(10), 3)).toBe('😀😀😀');
  });
});

describe('plausibleAddress', () => {
  it('takes one plain address, trimmed, with the domain in lower-case ASCII', () => {
    expect(plausibleAddress(' ada@example.com ')).toBe('ada@example.com');
    expect(plausibleAddress('Ada.Lovelace+forms@Example.CO.uk')).toBe(
      'Ada.Lovelace+forms@example.co.uk',
    );
    expect(plausibleAddress('ada@bücher.de')).toBe('ada@xn--bcher-kva.de');
  });

  it.each([
    ['empty', ''],
    ['no at', 'ada.example.com'],
    ['two ats', 'ada@b@example.com'],
    ['no top-level domain', 'ada@localhost'],
    ['a CR LF', 'ada@example.com\r\nBcc: victim@example.com'],
    ['a LF', 'ada@example.com\nbcc@example.com'],
    ['a comma', 'ada@example.com,victim@example.com'],
    ['a semicolon', 'ada@example.com;victim@example.com'],
    ['a display name', 'Ada <ada@example.com>'],
    ['a space', 'ada lovelace@example.com'],
    ['a quoted local part', '"ada"@example.com'],
    ['a non-ASCII local part', 'zoë@example.com'],
    ['a leading dot', '.ada@example.com'],
    ['two dots', 'ada..l@example.com'],
    ['a numeric top-level domain', 'ada@example.123'],
    ['a label starting with a hyphen', 'ada@-example.com'],
    ['too long', `${'a'.repeat(64)}@${'b'.repeat(200)}.com`],
    ['a local part over 64', `${'a'.repeat(65)}@example.com`],
  ])('refuses %s', (_case, text) => {
    expect(plausibleAddress(text)).toBeUndefined();
  });
});

describe('submitterAddress', () => {
  const fields: FieldDefinition[] = [
    { id: 'name', type: 'text' },
    { id: 'work', type: 'email' },
    { id: 'home', type: 'email' },
  ];

  it('prefers a valid _replyto hint', () => {
    const submission = submissionWith({ work: 'work@example.com', email: 'e@example.com' });
    expect(
      submitterAddress(submission, formWith({ fields }), { replyTo: 'hint@example.com' }),
    ).toBe('hint@example.com');
  });

  it('skips an invalid hint for the first email field in field order', () => {
    const submission = submissionWith(
      answers([
        ['home', 'home@example.com'],
        ['work', 'work@example.com'],
      ]),
    );
    expect(
      submitterAddress(submission, formWith({ fields }), {
        replyTo: 'hint@example.com\r\nBcc: victim@example.com',
      }),
    ).toBe('work@example.com');
  });

  it('skips an email field whose answer is not an address', () => {
    const submission = submissionWith({ work: 'not an address', home: 'home@example.com' });
    expect(submitterAddress(submission, formWith({ fields }))).toBe('home@example.com');
  });

  it('falls back to an answer named email in any case, only when no email field answered', () => {
    const submission = submissionWith(
      answers([
        ['E-Mail', 'x@example.com'],
        ['EMAIL', 'caps@example.com'],
      ]),
    );
    expect(submitterAddress(submission, formWith({ fields }))).toBe('caps@example.com');
    expect(submitterAddress(submission, formWith({ fields: null }))).toBe('caps@example.com');
  });

  it('counts an answer named email by its name even when its field is not of type email', () => {
    const textEmail: FieldDefinition[] = [{ id: 'email', type: 'text' }];
    const submission = submissionWith({ email: 'text@example.com' });
    expect(submitterAddress(submission, formWith({ fields: textEmail }))).toBe('text@example.com');
  });

  it('finds nothing when no answer is a plausible single address', () => {
    const submission = submissionWith({
      email: 'a@example.com, b@example.com',
      work: 'Ada <ada@example.com>',
    });
    expect(submitterAddress(submission, formWith({ fields }))).toBeUndefined();
    expect(submitterAddress(submissionWith({}), formWith({ fields: null }))).toBeUndefined();
  });

  it('reads own answers only: an email field named like an Object property has no answer', () => {
    const protoFields: FieldDefinition[] = [{ id: 'constructor', type: 'email' }];
    expect(submitterAddress(submissionWith({}), formWith({ fields: protoFields }))).toBeUndefined();
    const own = submissionWith(answers([['constructor', 'c@example.com']]));
    expect(submitterAddress(own, formWith({ fields: protoFields }))).toBe('c@example.com');
  });
});

describe('fillPlaceholders', () => {
  const context = {
    form: formWith({ name: 'Contact' }),
    submission: submissionWith({ name: 'Ada', 'first name': 'Augusta' }),
  };

  it('fills the form, submission and field placeholders', () => {
    expect(
      fillPlaceholders(
        '{{form.name}} {{form.id}} {{submission.id}} {{submission.createdAt}} {{field.name}}',
        context,
      ),
    ).toBe(`Contact ${FORM_ID} ${SUBMISSION_ID} 2026-03-04T05:06:07.089Z Ada`);
  });

  it('tolerates whitespace inside the braces', () => {
    expect(
      fillPlaceholders('{{ form.name }}|{{\tfield.name  }}|{{field.first name}}', context),
    ).toBe('Contact|Ada|Augusta');
  });

  it('fills an unknown placeholder (only a form saved before they were refused holds one) and a missing answer with nothing', () => {
    expect(
      fillPlaceholders(
        '{{ form.owner }} {{team.name}} {{}} {field.name} [{{field.missing}}] {{name}}',
        context,
      ),
    ).toBe('   {field.name} [] ');
  });

  it('reads own answers only: Object.prototype names are empty, an answer so named is an answer', () => {
    expect(
      fillPlaceholders('[{{field.constructor}}][{{field.__proto__}}][{{field.toString}}]', context),
    ).toBe('[][][]');
    const own = {
      ...context,
      submission: submissionWith(answers([['constructor', 'built']])),
    };
    expect(fillPlaceholders('{{field.constructor}}', own)).toBe('built');
  });

  it('never exposes _invalid, which is not an answer', () => {
    const invalid = {
      ...context,
      submission: submissionWith({ _invalid: '[{"fieldId":"a","reason":"required"}]' }),
    };
    expect(fillPlaceholders('[{{field._invalid}}]', invalid)).toBe('[]');
  });

  it('does not fill placeholders found in the values it inserts', () => {
    const nested = {
      ...context,
      submission: submissionWith({ name: '{{form.id}}' }),
    };
    expect(fillPlaceholders('{{field.name}}', nested)).toBe('{{form.id}}');
  });
});

describe('notificationRecipients', () => {
  const team = { plan: 'pro' as const, ownerEmail: 'owner@example.com' };
  it('notifyEmail in To, notifyCc in Cc, each address once whatever its case', () => {
    expect(
      notificationRecipients(
        {
          notifyEmail: 'Desk@example.com',
          notifyCc: ['desk@EXAMPLE.com', 'a@example.com', 'A@example.com'],
        },
        team,
      ),
    ).toEqual({ to: 'Desk@example.com', cc: ['a@example.com'] });
  });

  it('the owner in To when notifyEmail is null; the owner alone on Free', () => {
    const form = { notifyEmail: null, notifyCc: ['a@example.com', 'owner@example.com'] };
    expect(notificationRecipients(form, team)).toEqual({
      to: 'owner@example.com',
      cc: ['a@example.com'],
    });
    expect(
      notificationRecipients(
        { notifyEmail: 'desk@example.com', notifyCc: ['a@example.com'] },
        { ...team, plan: 'free' },
      ),
    ).toEqual({ to: 'owner@example.com', cc: [] });
  });

  it('one message carries them all: the Cc of the notification', () => {
    const message = ownerNotification({
      form: formWith(),
      submission: submissionWith({ name: 'Ada' }),
      recipient: 'owner@example.com',
      cc: ['a@example.com', 'b@example.com'],
      baseUrl: BASE_URL,
    });
    expect(message.to).toBe('owner@example.com');
    expect(message.cc).toEqual(['a@example.com', 'b@example.com']);
  });
});

describe('ownerNotification', () => {
  it('goes to the recipient, from notifyFromName, with the default subject filled', () => {
    const message = notify({ name: 'Ada' }, { form: { notifyFromName: 'Acme Forms' } });
    expect(message.to).toBe('owner@example.com');
    expect(message.fromName).toBe('Acme Forms');
    expect(message.subject).toBe('New submission: Contact');
    expect(message.replyTo).toBeUndefined();
    expect(message.autoSubmitted).toBe('auto-generated');
  });

  it('fills notifySubject placeholders, and _subject replaces it when sent', () => {
    const data = { name: 'Ada', email: 'ada@example.com' };
    const form = { notifySubject: 'From {{ field.name }} via {{form.name}}' };
    expect(notify(data, { form }).subject).toBe('From Ada via Contact');
    expect(notify(data, { form, hints: { subject: 'Quote request' } }).subject).toBe(
      'Quote request',
    );
    expect(notify(data, { form, hints: { subject: ' \r\n ' } }).subject).toBe(
      'From Ada via Contact',
    );
  });

  it('falls back to the default subject when the filled one is blank', () => {
    expect(notify({}, { form: { notifySubject: '{{field.topic}}' } }).subject).toBe(
      'New submission: Contact',
    );
  });

  it('cannot be made to inject headers: _subject, answers and names stay one line', () => {
    const injected = notify(
      { name: 'Ada\r\nBcc: victim@example.com', email: 'ada@example.com' },
      {
        form: {
          notifySubject: '{{field.name}}',
          notifyFromName: 'Forms\r\nBcc: victim@example.com',
        },
        hints: { subject: 'Hi\r\nBcc: victim@example.com' },
      },
    );
    expect(injected.subject).toBe('Hi Bcc: victim@example.com');
    expect(injected.fromName).toBe('Forms Bcc: victim@example.com');
    const fromAnswer = notify(
      { name: 'Ada\r\nBcc: victim@example.com' },
      { form: { notifySubject: 'New: {{field.name}}' } },
    );
    expect(fromAnswer.subject).toBe('New: Ada Bcc: victim@example.com');
    for (const message of [injected, fromAnswer]) {
      for (const header of [message.to, message.fromName, message.subject, message.replyTo ?? '']) {
        expect(header).not.toMatch(/[\r\n]/);
      }
    }
  });

  it('cuts a long subject to 998 characters', () => {
    const message = notify(
      { message: 'word '.repeat(2000) },
      { form: { notifySubject: '{{field.message}}' } },
    );
    expect(message.subject.length).toBeLessThanOrEqual(998);
    expect(message.subject.startsWith('word word')).toBe(true);
  });

  it('sets Reply-To to the submitter: the _replyto hint, else the email field', () => {
    expect(notify({ email: 'ada@example.com' }).replyTo).toBe('ada@example.com');
    expect(
      notify({ email: 'ada@example.com' }, { hints: { replyTo: 'reply@example.com' } }).replyTo,
    ).toBe('reply@example.com');
    expect(notify({ email: 'not-an-address' }).replyTo).toBeUndefined();
  });

  it('lists answers by label in field order, then other answers by name', () => {
    const data = answers([
      ['extra', 'later'],
      ['message', 'Hello'],
      ['email', 'ada@example.com'],
      ['name', 'Ada'],
    ]);
    const { text, html } = notify(data);
    const order = ['Name: Ada', 'Email: ada@example.com', 'Message: Hello', 'extra: later'];
    const positions = order.map((line) => text.indexOf(line));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const htmlOrder = ['>Name<', '>Email<', '>Message<', '>extra<'].map((cell) =>
      html.indexOf(cell),
    );
    expect(htmlOrder.every((position) => position >= 0)).toBe(true);
    expect([...htmlOrder].sort((a, b) => a - b)).toEqual(htmlOrder);
  });

  it('uses the field id when a field has no label, and lists all answers when fields is null', () => {
    const unlabeled = notify(
      { topic: 'Pricing' },
      { form: { fields: [{ id: 'topic', type: 'text' }] } },
    );
    expect(unlabeled.text).toContain('topic: Pricing');
    const anyFields = notify(
      answers([
        ['b', '2'],
        ['a', '1'],
      ]),
      { form: { fields: null } },
    );
    expect(anyFields.text.indexOf('b: 2')).toBeLessThan(anyFields.text.indexOf('a: 1'));
  });

  it('indents multi-line answers in the text and breaks lines in the HTML', () => {
    const { text, html } = notify({ message: 'line one\r\nline two' });
    expect(text).toContain('Message:\n  line one\n  line two');
    expect(html).toContain('line one<br>\nline two');
  });

  it('escapes every user-controlled string in the HTML part', () => {
    const script = '<script>alert(1)</script>';
    const { html, text } = notify(
      answers([
        ['message', script],
        ['<img src=x onerror=alert(2)>', '"quoted" & \'single\''],
      ]),
      {
        form: {
          name: `<b>${script}</b>`,
          fields: [{ id: 'message', type: 'textarea', label: '<i>Label</i>' }],
        },
        submission: {
          meta: {
            userAgent: 'test',
            referrer: '',
            files: [{ name: '<svg onload=alert(3)>.png', mime: 'image/png', size: 10 }],
          },
          data: answers([
            ['message', script],
            ['<img src=x onerror=alert(2)>', '"quoted" & \'single\''],
            ['_invalid', JSON.stringify([{ fieldId: '<u>x</u>', reason: '<blink>' }])],
          ]),
        },
        hints: { subject: '</title><script>alert(4)</script>' },
      },
    );
    expect(html).not.toMatch(/<(script|img|svg|b>|i>|u>|blink)/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; &#39;single&#39;');
    expect(html).toContain('&lt;i&gt;Label&lt;/i&gt;');
    expect(html).toContain('&lt;svg onload=alert(3)&gt;.png');
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(4)&lt;/script&gt;</title>');
    // The text part is text: shown as written.
    expect(text).toContain(`<i>Label</i>: ${script}`);
  });

  it('lists files by cleaned name and human-readable size, without links', () => {
    const { text, html } = notify(
      { name: 'Ada' },
      {
        submission: {
          meta: {
            userAgent: 'test',
            referrer: '',
            files: [
              { name: 'invoice\u202Efdp.exe', mime: 'application/octet-stream', size: 532 },
              { name: 'cv.pdf', mime: 'application/pdf', size: 1_258_291 },
              { name: 'photo.jpg', mime: 'image/jpeg', size: 14_540 },
            ],
          },
        },
      },
    );
    expect(text).toContain(
      'Files:\n- invoicefdp.exe (532 bytes)\n- cv.pdf (1.2 MB)\n- photo.jpg (14.2 KB)',
    );
    expect(html).toContain('<li>invoicefdp.exe (532 bytes)</li>');
    expect(html).not.toContain('\u202E');
    expect(html).not.toMatch(/href="(?!https:\/\/forms\.example\.com)/);
    expect(text).not.toMatch(/https?:\/\/(?!forms\.example\.com)/);
  });

  it('cleans hidden characters from answer names', () => {
    const { text } = notify(answers([['na\u200Bme\u202E', 'x']]), { form: { fields: null } });
    expect(text).toContain('name: x');
  });

  it('lists the _invalid problems by field label, and never as an answer', () => {
    const problems = JSON.stringify([
      { fieldId: 'email', reason: 'invalid_email' },
      { fieldId: 'phone', reason: 'invalid_tel' },
      { fieldId: 'name', reason: 'made_up' },
      { nonsense: true },
      'text',
      null,
    ]);
    const { text, html } = notify({ email: 'nope', _invalid: problems });
    expect(text).toContain(
      [
        'Answers that did not pass the form’s checks:',
        '- Email is not a valid email address',
        '- phone is not a valid phone number',
        '- Name failed the check "made_up"',
      ].join('\n'),
    );
    expect(text).not.toContain('_invalid');
    expect(html).toContain('<li>Email is not a valid email address</li>');
  });

  it('tolerates an _invalid that is not the expected JSON', () => {
    for (const garbage of ['not json', '{"fieldId":"email"}', '[]', '42', 'null']) {
      const { text } = notify({ email: 'ada@example.com', _invalid: garbage });
      expect(text).toContain('Some answers did not pass the form’s checks.');
    }
    expect(notify({ email: 'ada@example.com' }).text).not.toContain('did not pass');
  });

  it('says when it is a test submission, and only then', () => {
    const test = notify({ name: 'Ada' }, { submission: { isTest: true } });
    expect(test.text).toContain('This is a test submission.');
    expect(test.html).toContain('This is a test submission.');
    const real = notify({ name: 'Ada' });
    expect(real.text).not.toContain('test submission');
    expect(real.html).not.toContain('test submission');
  });

  it('gives the time received, the submission id and a link to the submission in the dashboard', () => {
    const { text, html } = notify({ name: 'Ada' });
    expect(text).toContain('Received: 2026-03-04 05:06:07 UTC');
    expect(text).toContain(`Submission: ${SUBMISSION_ID}`);
    expect(text).toContain(`View submission: ${SUBMISSION_PAGE}`);
    expect(html).toContain(`<a href="${SUBMISSION_PAGE}">View submission</a>`);
    expect(text).not.toContain('/v1/');
    expect(text.startsWith('New submission to Contact\n')).toBe(true);
  });
});

describe('humanSize', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [150 * 1024, '150 KB'],
    [10 * 1024 * 1024, '10 MB'],
    [100 * 1024 * 1024, '100 MB'],
    [-1, 'unknown size'],
  ])('%d bytes is %s', (bytes, shown) => {
    expect(humanSize(bytes)).toBe(shown);
  });
});

describe('autoReply', () => {
  const form = formWith({
    autoreplyEnabled: true,
    autoreplyAnswerPlaceholders: true,
    autoreplySubject: 'Thanks, {{ field.name }}!',
    autoreplyBody:
      'Hi {{field.name}},\n\nWe got your message about <{{field.topic}}>.\r\n— {{form.name}}',
    notifyFromName: 'Acme',
  });

  it('fills subject and body, from notifyFromName, replying to the notification recipient', () => {
    const message = autoReply({
      form,
      submission: submissionWith({ name: 'Ada', topic: 'pricing & plans' }),
      to: 'ada@example.com',
      replyTo: 'owner@example.com',
    });
    expect(message).toMatchObject({
      to: 'ada@example.com',
      fromName: 'Acme',
      replyTo: 'owner@example.com',
      subject: 'Thanks, Ada!',
      autoSubmitted: 'auto-replied',
      text: 'Hi Ada,\n\nWe got your message about <pricing & plans>.\n— Contact\n',
    });
    expect(message.html).toContain(
      '<p>Hi Ada,<br>\n<br>\nWe got your message about &lt;pricing &amp; plans&gt;.<br>\n— Contact</p>',
    );
  });

  it('escapes answers placed in the HTML body and keeps the subject one line', () => {
    const message = autoReply({
      form,
      submission: submissionWith({ name: '<script>x</script>\r\nBcc: victim@example.com' }),
      to: 'ada@example.com',
    });
    expect(message.subject).toBe('Thanks, <script>x</script> Bcc: victim@example.com!');
    expect(message.html).not.toContain('<script>');
    expect(message.replyTo).toBeUndefined();
  });

  it('fills no answer unless the owner turned answer placeholders on: a visitor writes no part of it', () => {
    const message = autoReply({
      form: { ...form, autoreplyAnswerPlaceholders: false },
      submission: submissionWith({ name: 'Buy cheap pills at spam.example', topic: 'x' }),
      to: 'victim@example.com',
    });
    expect(message.subject).toBe('Thanks, !');
    expect(message.text).toBe('Hi ,\n\nWe got your message about <>.\n— Contact\n');
    expect(message.html).not.toContain('spam.example');
  });

  it('uses defaults when the form has no subject or body', () => {
    const message = autoReply({
      form: formWith({ autoreplySubject: null, autoreplyBody: null }),
      submission: submissionWith({}),
      to: 'ada@example.com',
    });
    expect(message.subject).toBe('We received your submission: Contact');
    expect(message.text).toContain('Thank you for your submission to Contact.');
  });
});

describe('bidi controls in answers', () => {
  it('never reach the notification body or a filled placeholder, line breaks kept', () => {
    const form = formWith({ notifySubject: 'New: {{field.message}}' });
    const submission = submissionWith({
      message: 'pay \u202Egnp.exe\u202C now\nsecond line\u2066x\u2069',
    });
    const message = ownerNotification({
      form,
      submission,
      recipient: 'owner@example.com',
      baseUrl: 'https://x.example',
    });
    for (const text of [message.text, message.html, message.subject]) {
      expect(text).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    }
    expect(message.text).toContain('pay gnp.exe now');
    expect(message.text).toContain('second linex');
  });
});
