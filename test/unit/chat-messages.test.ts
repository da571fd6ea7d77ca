import { describe, expect, it } from 'vitest';
import {
  type ChatAnswer,
  type ChatMessageInput,
  chatAnswers,
  DISCORD_LIMITS,
  type DiscordEmbed,
  discordEscape,
  discordMessage,
  EMPTY_ANSWER,
  fitEscaped,
  MAX_CHAT_ANSWERS,
  SLACK_LIMITS,
  type SlackBlock,
  slackEscape,
  slackMessage,
} from '#domain/chat-messages.ts';
import { defaultSettings } from '#domain/form-defaults.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';

const FORM_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const SUBMISSION_ID = '019a1b2c-3d4e-7f00-8a1b-2c3d4e5f6a7b';
const SUBMISSION_URL = `https://forms.example.com/prod/app/forms/${FORM_ID}/submissions/${SUBMISSION_ID}`;

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

function input(answers: ChatAnswer[], overrides: Partial<ChatMessageInput> = {}): ChatMessageInput {
  return {
    formName: 'Contact',
    answers,
    submissionUrl: SUBMISSION_URL,
    isTest: false,
    createdAt: '2026-03-04T05:06:07.089Z',
    ...overrides,
  };
}

/** What Slack shows of escaped text: its three entities read back. */
const slackShown = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
/** What Discord shows of escaped text: a backslash before punctuation shows the punctuation. */
const discordShown = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, '$1');

const sectionTexts = (blocks: SlackBlock[]) =>
  blocks.flatMap((block) => (block.type === 'section' ? [block.text.text] : []));
const allSlackTexts = (blocks: SlackBlock[]) =>
  blocks.flatMap((block) =>
    block.type === 'context' ? block.elements.map((e) => e.text) : [block.text.text],
  );

/** Discord's 6,000: title, description, field names and values, footer (no author here). */
const embedTotal = (embed: DiscordEmbed) =>
  embed.title.length +
  (embed.description?.length ?? 0) +
  (embed.footer?.text.length ?? 0) +
  embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);

const HOSTILE = [
  '<!channel> <!here> <!everyone>',
  '<@U0123ABCD> and <#C0123ABCD> and <!subteam^S123>',
  '<https://evil.example|click me> & <mailto:a@b.c|mail>',
  '@everyone @here <@123456789012345678> <@&123456789012345678> <#123456789012345678>',
  '**bold** __under__ *it* _it_ ~~gone~~ `code` ```block``` ||spoiler||',
  '[masked](https://evil.example) <https://x.example> <t:1700000000:R> <:emoji:123>',
  '# heading\n## two\n-# subtext\n> quote\n>>> all\n- item\n1. first\n  2. second',
  'back\\slash \\*not bold\\* 3.14',
];

describe('chatAnswers', () => {
  it('lists the form’s fields in order by label, then other answers by name, without _ names', () => {
    const form = formWith({
      fields: [
        { id: 'message', type: 'textarea', label: 'Your message' },
        { id: 'email', type: 'email', label: ' Email\u202E ' },
        { id: 'name', type: 'text' },
        { id: 'phone', type: 'tel', label: 'Phone' },
      ],
    });
    const submission = submissionWith({
      extra: 'more',
      name: 'Ada',
      _invalid: '[{"fieldId":"email","reason":"invalid_email"}]',
      email: 'ada@example.com',
      message: 'Hello\u202Eworld',
    });
    expect(chatAnswers(submission, form)).toEqual([
      { label: 'Your message', value: 'Helloworld' },
      { label: 'Email', value: 'ada@example.com' },
      { label: 'name', value: 'Ada' },
      { label: 'extra', value: 'more' },
    ]);
  });

  it('keeps an answer left blank (empty value) and leaves out a field never answered', () => {
    const form = formWith({
      fields: [
        { id: 'a', type: 'text', label: 'A' },
        { id: 'b', type: 'text', label: 'B' },
      ],
    });
    expect(chatAnswers(submissionWith({ a: '' }), form)).toEqual([{ label: 'A', value: '' }]);
  });

  it('shows files as their names: at their file field, then under other names, then unnamed as Files', () => {
    const form = formWith({
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'cv', type: 'file', label: 'Your CV' },
        { id: 'photo', type: 'file', label: 'Photo' },
      ],
    });
    const submission = submissionWith(
      { name: 'Ada' },
      {
        meta: {
          userAgent: 'test',
          referrer: '',
          files: [
            { field: 'cv', name: 'cv\u202Efdp.exe', mime: 'application/pdf', size: 10 },
            { field: 'attachment', name: 'a.png', mime: 'image/png', size: 1 },
            { name: 'old.txt', mime: 'text/plain', size: 1 },
            { field: 'cv', name: 'letter.pdf', mime: 'application/pdf', size: 10 },
          ],
        },
      },
    );
    expect(chatAnswers(submission, form)).toEqual([
      { label: 'Name', value: 'Ada' },
      { label: 'Your CV', value: 'cvfdp.exe, letter.pdf' },
      { label: 'attachment', value: 'a.png' },
      { label: 'Files', value: 'old.txt' },
    ]);
  });

  it('reads answers named like Object.prototype’s properties as plain answers, on a form without fields', () => {
    const data: Record<string, string> = {};
    for (const name of ['constructor', 'valueOf', 'toString']) {
      Object.defineProperty(data, name, {
        value: name.toUpperCase(),
        enumerable: true,
        writable: true,
      });
    }
    expect(chatAnswers(submissionWith(data), formWith({ fields: null }))).toEqual([
      { label: 'constructor', value: 'CONSTRUCTOR' },
      { label: 'valueOf', value: 'VALUEOF' },
      { label: 'toString', value: 'TOSTRING' },
    ]);
  });
});

describe('fitEscaped', () => {
  it('never cuts inside an escape or a surrogate pair, and fits with the ellipsis', () => {
    const ampersands = fitEscaped('&'.repeat(100), 20, slackEscape);
    expect(ampersands).toBe(`${'&amp;'.repeat(3)}…`);
    const emoji = fitEscaped('😀'.repeat(10), 6, slackEscape);
    expect(emoji).toBe('😀😀…');
    expect(emoji.toWellFormed()).toBe(emoji);
    expect(fitEscaped('short', 5, discordEscape)).toBe('short');
    expect(fitEscaped('**', 3, discordEscape)).toBe('\\*…');
  });
});

describe('slackMessage', () => {
  it('shows hostile answers as written: &, < and > escaped, no link_names, verbatim text', () => {
    const answers = HOSTILE.map((value, index) => ({
      label: `<!channel> label ${index} &`,
      value,
    }));
    const message = slackMessage(input(answers, { formName: 'Sales <!here> & co' }));
    const body = JSON.stringify(message);
    expect(body).not.toContain('link_names');
    expect(message).toMatchObject({ unfurl_links: false, unfurl_media: false });
    const sections = sectionTexts(message.blocks);
    for (const [index, value] of HOSTILE.entries()) {
      const text = sections[index] ?? '';
      // Slack's control characters appear only as entities (the bold label's `*` is ours).
      expect(text.replace(/^\*[^\n]*\*\n/, '')).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
      expect(slackShown(text)).toBe(`*<!channel> label ${index} &*\n${value}`);
    }
    for (const block of message.blocks) {
      if (block.type === 'section')
        expect(block.text).toMatchObject({ type: 'mrkdwn', verbatim: true });
    }
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Sales &lt;!here&gt; &amp; co', emoji: false },
    });
    expect(message.text).toBe('New submission to Sales &lt;!here&gt; &amp; co');
    // The only unescaped `<…>` in the whole message is the link to the submission.
    expect(body.match(/<[^&]*?>/g)).toEqual([
      `<${SUBMISSION_URL}|View the submission in the dashboard>`,
    ]);
  });

  it('keeps every block within Slack’s limits with long labels, answers and form name, cutting with …', () => {
    const long = '&<>'.repeat(5000);
    const answers = Array.from({ length: 12 }, (_, index) => ({
      label: `${index} ${'L&'.repeat(400)}`,
      value: index % 2 ? long : `${'😀'.repeat(4000)}x`,
    }));
    const message = slackMessage(input(answers, { formName: `${'F&'.repeat(300)}`, isTest: true }));
    const header = message.blocks[0];
    expect(header?.type).toBe('header');
    if (header?.type === 'header') {
      expect(header.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
      expect(header.text.text.endsWith('…')).toBe(true);
    }
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    const sections = sectionTexts(message.blocks);
    expect(sections).toHaveLength(MAX_CHAT_ANSWERS + 1); // the answers and the link
    for (const text of sections) {
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
      expect(text.toWellFormed()).toBe(text);
    }
    for (const text of sections.slice(0, MAX_CHAT_ANSWERS)) {
      expect(text.endsWith('…')).toBe(true);
      expect(text.length).toBeGreaterThan(SLACK_LIMITS.sectionText - 10);
    }
    for (const text of allSlackTexts(message.blocks)) {
      expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.contextText);
    }
    expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.text);
  });

  it('cuts answers past 10 and counts them, says when it is a test, and shows blank answers', () => {
    const answers = Array.from({ length: 13 }, (_, index) => ({
      label: `Q${index}`,
      value: index ? `A${index}` : ' ',
    }));
    const test = slackMessage(input(answers, { isTest: true }));
    const texts = allSlackTexts(test.blocks);
    expect(sectionTexts(test.blocks).slice(0, MAX_CHAT_ANSWERS)).toEqual([
      `*Q0*\n_${EMPTY_ANSWER}_`,
      ...Array.from({ length: 9 }, (_, index) => `*Q${index + 1}*\nA${index + 1}`),
    ]);
    expect(texts).toContain('3 more answers in the dashboard');
    expect(texts.some((text) => text.includes('Test submission'))).toBe(true);
    expect(test.text).toBe('Test submission to Contact');
    expect(texts).toContain('*Test submission* · Received 2026-03-04 05:06:07 UTC');

    const real = slackMessage(input(answers.slice(0, 11)));
    expect(JSON.stringify(real)).not.toMatch(/test/i);
    expect(allSlackTexts(real.blocks)).toContain('1 more answer in the dashboard');
    expect(real.text).toBe('New submission to Contact');
  });

  it('says there are no answers when there are none', () => {
    expect(sectionTexts(slackMessage(input([])).blocks)[0]).toBe('_(no answers)_');
  });
});

describe('discordMessage', () => {
  it('never pings: allowed_mentions parse is empty, markdown and mentions are escaped and shown as written', () => {
    const answers = HOSTILE.map((value, index) => ({
      label: `@everyone **label** ${index}`,
      value,
    }));
    const message = discordMessage(input(answers, { formName: '@here **Sales** <@123>' }));
    expect(message.allowed_mentions).toEqual({ parse: [] });
    const [embed] = message.embeds;
    expect(embed.url).toBe(SUBMISSION_URL);
    expect(embed.title).toBe('\\@here \\*\\*Sales\\*\\* \\<\\@123\\>');
    expect(message.content).toBe('New submission to \\@here \\*\\*Sales\\*\\* \\<\\@123\\>');
    for (const [index, value] of HOSTILE.entries()) {
      const field = embed.fields[index];
      expect(discordShown(field?.name ?? '')).toBe(`@everyone **label** ${index}`);
      expect(discordShown(field?.value ?? '')).toBe(value);
      // No markup character is left bare: each follows a backslash.
      expect(field?.value.replace(/\\[^0-9A-Za-z\s]/g, '')).not.toMatch(
        /[\\*_~`|<>#\-[\]()@]|\d\./,
      );
    }
    expect(embed.fields.every((field) => field.inline === false)).toBe(true);
  });

  it('keeps content, title, every field and the embed’s total within Discord’s limits', () => {
    const answers = Array.from({ length: 30 }, (_, index) => ({
      label: `${index} ${'*'.repeat(400)}`,
      value: index % 3 ? '_@'.repeat(5000) : `${'😀'.repeat(2000)}`,
    }));
    const message = discordMessage(input(answers, { formName: '#'.repeat(1000), isTest: true }));
    const [embed] = message.embeds;
    expect(message.content.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    expect(embed.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(embed.title.endsWith('…')).toBe(true);
    expect(embed.fields).toHaveLength(MAX_CHAT_ANSWERS);
    expect(embed.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const field of embed.fields) {
      expect(field.name.length).toBeGreaterThan(0);
      expect(field.name.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(field.value.length).toBeGreaterThan(1);
      expect(field.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
      expect(field.value.endsWith('…')).toBe(true);
      expect(field.value.toWellFormed()).toBe(field.value);
    }
    expect(embed.footer?.text).toBe('20 more answers in the dashboard');
    expect(embed.footer?.text.length ?? 0).toBeLessThanOrEqual(DISCORD_LIMITS.footer);
    expect(embed.description).toBe('**Test submission**');
    const total = embedTotal(embed);
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    // The room is used, not wasted: the answers share what is left of the 6,000.
    expect(total).toBeGreaterThan(DISCORD_LIMITS.embedTotal - 20);
  });

  it('gives short answers whole and the long one the rest of the embed', () => {
    const message = discordMessage(
      input([
        { label: 'Name', value: 'Ada' },
        { label: 'Message', value: 'x'.repeat(900) },
        { label: 'Blank', value: '' },
      ]),
    );
    const [embed] = message.embeds;
    expect(embed.fields.map((field) => field.value)).toEqual([
      'Ada',
      'x'.repeat(900),
      EMPTY_ANSWER,
    ]);
    expect(embed.fields.map((field) => field.name)).toEqual(['Name', 'Message', 'Blank']);
    expect(embed).not.toHaveProperty('description');
    expect(embed).not.toHaveProperty('footer');
    expect(embed.timestamp).toBe('2026-03-04T05:06:07.089Z');
    expect(message.content).toBe('New submission to Contact');
  });

  it('says when it is a test submission', () => {
    const message = discordMessage(input([{ label: 'A', value: 'b' }], { isTest: true }));
    expect(message.content).toBe('Test submission to Contact');
    expect(message.embeds[0].description).toBe('**Test submission**');
  });
});

describe('messages from a stored submission', () => {
  it('build from chatAnswers with file names, labels and the 10-answer cut', () => {
    const form = formWith({
      name: 'Jobs',
      fields: [
        { id: 'cv', type: 'file', label: 'CV' },
        ...Array.from({ length: 11 }, (_, index) => ({
          id: `q${index}`,
          type: 'text' as const,
          label: `Question ${index}`,
        })),
      ],
    });
    const data = Object.fromEntries(
      Array.from({ length: 11 }, (_, index) => [`q${index}`, `answer ${index}`]),
    );
    const submission = submissionWith(data, {
      meta: {
        userAgent: 't',
        referrer: '',
        files: [{ field: 'cv', name: 'cv.pdf', mime: 'application/pdf', size: 3 }],
      },
    });
    const built = input(chatAnswers(submission, form), { formName: form.name });
    const slack = slackMessage(built);
    expect(sectionTexts(slack.blocks)[0]).toBe('*CV*\ncv.pdf');
    expect(allSlackTexts(slack.blocks)).toContain('2 more answers in the dashboard');
    const discord = discordMessage(built);
    expect(discord.embeds[0].fields[0]).toEqual({ name: 'CV', value: 'cv.pdf', inline: false });
    expect(discord.embeds[0].fields.at(-1)?.name).toBe('Question 8');
  });
});
