import { describe, expect, it } from 'vitest';
import { type ChatMessageInput, discordMessage, slackMessage } from '#domain/chat-messages.ts';
import { discordRefusal, pingingMentions, slackRefusal } from '#lib/local/emulators/chat-checks.ts';

const HOSTILE = [
  '<!channel> <!here> <@U0123ABCD> <!subteam^S1> <https://evil.example|click>',
  '@everyone @here <@123456789012345678> <@&123456789012345678> [x](https://evil.example)',
  '**bold** ||spoiler|| # heading\n> quote\n1. list & more',
];

const messages: ChatMessageInput[] = [
  {
    formName: '<!here> @everyone **Form**',
    answers: HOSTILE.map((value, index) => ({ label: `<@U1> @here ${index}`, value })),
    submissionUrl: 'https://forms.example.com/app/forms/f/submissions/s?a=1&b=<2>',
    isTest: true,
    createdAt: '2026-03-04T05:06:07.089Z',
  },
  {
    formName: 'x'.repeat(500),
    answers: Array.from({ length: 30 }, (_, index) => ({
      label: `${index}${'<'.repeat(600)}`,
      value: index % 2 ? '&@*'.repeat(4000) : '😀'.repeat(5000),
    })),
    submissionUrl: 'https://forms.example.com/app/forms/f/submissions/s',
    isTest: false,
    createdAt: 'not a time',
  },
  {
    formName: '',
    answers: [{ label: '', value: '' }],
    submissionUrl: 'https://forms.example.com/app/forms/f/submissions/s',
    isTest: false,
    createdAt: '2026-03-04T05:06:07.089Z',
  },
];

describe('the local receivers take the service’s own messages', () => {
  it.each(messages.map((input, index) => [index, input] as const))(
    'message %i: Slack and Discord both take it, and nothing in it would notify anyone',
    (_, input) => {
      const slack = JSON.stringify(slackMessage(input));
      const discord = JSON.stringify(discordMessage(input));
      expect(slackRefusal(slack)).toBeUndefined();
      expect(discordRefusal(discord)).toBeUndefined();
      expect(pingingMentions('slack', slack)).toEqual([]);
      expect(pingingMentions('discord', discord)).toEqual([]);
    },
  );
});

describe('the Slack receiver refuses as Slack does', () => {
  const section = (text: string) =>
    JSON.stringify({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
  it.each([
    ['not JSON', 'payload=x', 'invalid_payload'],
    ['a JSON list', '[]', 'invalid_payload'],
    ['no text and no blocks', '{}', 'no_text'],
    ['a blank text', '{"text":"  "}', 'no_text'],
    ['no blocks in the list', '{"text":"x","blocks":[]}', 'invalid_blocks'],
    [
      '51 blocks',
      JSON.stringify({ blocks: Array(51).fill({ type: 'divider' }) }),
      'invalid_blocks',
    ],
    [
      'a header of 151 characters',
      JSON.stringify({
        blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
      }),
      'invalid_blocks',
    ],
    [
      'a mrkdwn header',
      JSON.stringify({ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'h' } }] }),
      'invalid_blocks',
    ],
    ['a section of 3,001 characters', section('s'.repeat(3001)), 'invalid_blocks'],
    ['an empty section', section(''), 'invalid_blocks'],
    ['an unknown block', JSON.stringify({ blocks: [{ type: 'carousel' }] }), 'invalid_blocks'],
  ])('%s: refused', (_, body, word) => {
    expect(slackRefusal(body)).toMatchObject({ status: 400, body: word });
  });

  it('takes a plain text, and sections of exactly 3,000 characters', () => {
    expect(slackRefusal('{"text":"hello"}')).toBeUndefined();
    expect(slackRefusal(section('s'.repeat(3000)))).toBeUndefined();
  });
});

describe('the Discord receiver refuses as Discord does', () => {
  const embed = (fields: { name: string; value: string }[], extra: object = {}) =>
    JSON.stringify({ embeds: [{ title: 't', fields, ...extra }] });
  const field = (value: string) => ({ name: 'n', value });
  it.each([
    ['not JSON', 'x', 50109],
    ['no content and no embed', '{}', 50006],
    ['a blank content', '{"content":" "}', 50006],
    ['content of 2,001 characters', JSON.stringify({ content: 'c'.repeat(2001) }), 50035],
    ['a field value of 1,025 characters', embed([field('v'.repeat(1025))]), 50035],
    ['an empty field value', embed([field('')]), 50035],
    ['26 fields', embed(Array(26).fill(field('v'))), 50035],
    [
      '6,001 characters in an embed',
      embed(Array(6).fill(field('v'.repeat(1000))), { description: 'd'.repeat(4) }),
      50035,
    ],
    ['a title of 257 characters', JSON.stringify({ embeds: [{ title: 't'.repeat(257) }] }), 50035],
    ['11 embeds', JSON.stringify({ embeds: Array(11).fill({ title: 't' }) }), 50035],
    [
      'an unknown mention kind',
      JSON.stringify({ content: 'c', allowed_mentions: { parse: ['all'] } }),
      50035,
    ],
    [
      'an embed url that is not one',
      JSON.stringify({ embeds: [{ title: 't', url: 'javascript:x' }] }),
      50035,
    ],
  ])('%s: refused', (_, body, code) => {
    const refusal = discordRefusal(body);
    expect(refusal?.status).toBe(400);
    expect(JSON.parse(refusal?.body ?? '{}').code).toBe(code);
  });

  it('takes content alone, and an embed of exactly 6,000 characters', () => {
    expect(discordRefusal('{"content":"hello"}')).toBeUndefined();
    expect(
      discordRefusal(embed(Array(6).fill(field('v'.repeat(998))), { description: 'd'.repeat(1) })),
    ).toBeUndefined();
  });
});

describe('pingingMentions', () => {
  it('finds what Slack would act on: raw mentions, and plain @names only with link_names', () => {
    const body = {
      text: 'hi <!channel> and <@U123|ada> @here',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<!here>' } }],
    };
    expect(pingingMentions('slack', JSON.stringify(body))).toEqual([
      '<!channel>',
      '<@U123|ada>',
      '<!here>',
    ]);
    expect(pingingMentions('slack', JSON.stringify({ ...body, link_names: true }))).toContain(
      '@here',
    );
    expect(pingingMentions('slack', JSON.stringify({ text: '&lt;!channel&gt;' }))).toEqual([]);
  });

  it('finds what Discord would ping in content: everything without allowed_mentions, nothing with parse []', () => {
    const content = '@everyone <@123> <@&456> \\@here';
    expect(pingingMentions('discord', JSON.stringify({ content }))).toEqual([
      '@everyone',
      '<@123>',
      '<@&456>',
    ]);
    expect(
      pingingMentions('discord', JSON.stringify({ content, allowed_mentions: { parse: [] } })),
    ).toEqual([]);
    expect(
      pingingMentions(
        'discord',
        JSON.stringify({ content, allowed_mentions: { parse: ['users'] } }),
      ),
    ).toEqual(['<@123>']);
  });
});
