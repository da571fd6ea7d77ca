/**
 * What the local Slack and Discord receivers refuse, and how (the answers
 * the real services give). They check the shape and the documented limits
 * of the parts of a message this service sends, so a body the real service
 * would refuse for its size or shape is refused locally too. Lengths are
 * measured in UTF-16 code units, never fewer than the characters either
 * service counts: at least as strict as the real check.
 */

/** A refusal: the status and the body the real service answers with. */
export interface ChatRefusal {
  status: number;
  /** Slack: a bare word (`invalid_payload`); Discord: JSON. */
  body: string;
  contentType: string;
  /** One line saying what was wrong, for the receivers' page. */
  reason: string;
  headers?: Record<string, string>;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object, or undefined when `body` is not one. */
export function jsonObject(body: string): Json | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// Slack: an incoming webhook answers 200 `ok`, or 400 with one word.

const slackWord = (word: string, reason: string): ChatRefusal => ({
  status: 400,
  body: word,
  contentType: 'text/html',
  reason: `${word}: ${reason}`,
});

/** Block Kit's limits on what a message's blocks hold (docs.slack.dev, Block Kit reference). */
const SLACK = { blocks: 50, header: 150, section: 3000, fields: 10, field: 2000, context: 10 };

/** Why a text object is not one, or undefined. */
function slackTextProblem(value: unknown, max: number, plainOnly = false): string | undefined {
  if (!isObject(value)) return 'a text object is missing';
  if (value.type !== 'plain_text' && value.type !== 'mrkdwn')
    return `text type ${String(value.type)}`;
  if (plainOnly && value.type !== 'plain_text') return 'a header takes plain_text only';
  if (typeof value.text !== 'string' || value.text.length === 0) return 'a text is empty';
  if (value.text.length > max) return `a text of ${value.text.length} characters (at most ${max})`;
  return undefined;
}

function slackBlockProblem(block: unknown): string | undefined {
  if (!isObject(block)) return 'a block is not an object';
  switch (block.type) {
    case 'header':
      return slackTextProblem(block.text, SLACK.header, true);
    case 'section': {
      if (block.text === undefined && block.fields === undefined) return 'a section has no text';
      if (block.text !== undefined) {
        const problem = slackTextProblem(block.text, SLACK.section);
        if (problem) return problem;
      }
      if (block.fields !== undefined) {
        if (!Array.isArray(block.fields) || block.fields.length > SLACK.fields)
          return `a section has more than ${SLACK.fields} fields`;
        for (const field of block.fields) {
          const problem = slackTextProblem(field, SLACK.field);
          if (problem) return problem;
        }
      }
      return undefined;
    }
    case 'context': {
      const { elements } = block;
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > SLACK.context)
        return `a context holds 1 to ${SLACK.context} elements`;
      for (const element of elements) {
        const problem = slackTextProblem(element, SLACK.section);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'divider':
      return undefined;
    default:
      return `block type ${String(block.type)} (this receiver knows header, section, context, divider)`;
  }
}

/** Why Slack would refuse this incoming-webhook body, or undefined when it takes it. */
export function slackRefusal(body: string): ChatRefusal | undefined {
  const message = jsonObject(body);
  if (!message) return slackWord('invalid_payload', 'the body is not a JSON object');
  const { text, blocks } = message;
  if (text !== undefined && typeof text !== 'string')
    return slackWord('invalid_payload', 'text is not a string');
  if (blocks === undefined) {
    if (typeof text !== 'string' || text.trim() === '')
      return slackWord('no_text', 'neither text nor blocks');
    return undefined;
  }
  if (!Array.isArray(blocks) || blocks.length === 0 || blocks.length > SLACK.blocks)
    return slackWord('invalid_blocks', `blocks must be a list of 1 to ${SLACK.blocks}`);
  for (const block of blocks) {
    const problem = slackBlockProblem(block);
    if (problem) return slackWord('invalid_blocks', problem);
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Discord: an execute-webhook call answers 204 (200 with the message when
// `?wait=true`), or 400 with a JSON error.

const discordError = (code: number, message: string, reason: string): ChatRefusal => ({
  status: 400,
  body: JSON.stringify({ message, code }),
  contentType: 'application/json',
  reason: `${code} ${message}: ${reason}`,
});
const invalidForm = (reason: string) => discordError(50035, 'Invalid Form Body', reason);

/** discord.com/developers/docs: Message resource (embed limits), Execute Webhook. */
const DISCORD = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
};
const MENTION_KINDS = new Set(['users', 'roles', 'everyone']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The embed's counted characters, or why it is refused. */
function embedSize(embed: unknown): number | string {
  if (!isObject(embed)) return 'an embed is not an object';
  let total = 0;
  const counted = (value: unknown, max: number, name: string, required = false) => {
    if (value === undefined && !required) return undefined;
    const string = text(value);
    if (string === undefined || (required && string.trim() === '')) return `${name} is empty`;
    if (string.length > max) return `${name} of ${string.length} characters (at most ${max})`;
    total += string.length;
    return undefined;
  };
  const problem =
    counted(embed.title, DISCORD.title, 'embed title') ??
    counted(embed.description, DISCORD.description, 'embed description') ??
    (embed.footer === undefined
      ? undefined
      : counted(
          isObject(embed.footer) ? embed.footer.text : undefined,
          DISCORD.footer,
          'footer text',
          true,
        )) ??
    (embed.author === undefined
      ? undefined
      : counted(
          isObject(embed.author) ? embed.author.name : undefined,
          DISCORD.author,
          'author name',
          true,
        ));
  if (problem) return problem;
  if (embed.url !== undefined && !/^https?:\/\/\S+$/.test(text(embed.url) ?? ''))
    return 'embed url is not a URL';
  if (embed.timestamp !== undefined && Number.isNaN(Date.parse(text(embed.timestamp) ?? '')))
    return 'embed timestamp is not ISO 8601';
  if (embed.fields !== undefined) {
    if (!Array.isArray(embed.fields) || embed.fields.length > DISCORD.fields)
      return `an embed has more than ${DISCORD.fields} fields`;
    for (const field of embed.fields) {
      if (!isObject(field)) return 'a field is not an object';
      const fieldProblem =
        counted(field.name, DISCORD.fieldName, 'field name', true) ??
        counted(field.value, DISCORD.fieldValue, 'field value', true);
      if (fieldProblem) return fieldProblem;
    }
  }
  return total;
}

/** Why Discord would refuse this execute-webhook body, or undefined when it takes it. */
export function discordRefusal(body: string): ChatRefusal | undefined {
  const message = jsonObject(body);
  if (!message)
    return discordError(50109, 'The request body contains invalid JSON.', 'not a JSON object');
  const content = message.content;
  if (content !== undefined && typeof content !== 'string')
    return invalidForm('content is not a string');
  if (typeof content === 'string' && content.length > DISCORD.content)
    return invalidForm(`content of ${content.length} characters (at most ${DISCORD.content})`);
  const embeds = message.embeds ?? [];
  if (!Array.isArray(embeds) || embeds.length > DISCORD.embeds)
    return invalidForm(`embeds must be a list of at most ${DISCORD.embeds}`);
  let total = 0;
  for (const embed of embeds) {
    const size = embedSize(embed);
    if (typeof size === 'string') return invalidForm(size);
    total += size;
  }
  if (total > DISCORD.total)
    return invalidForm(`embeds of ${total} characters in all (at most ${DISCORD.total})`);
  const mentions = message.allowed_mentions;
  if (mentions !== undefined) {
    const parse = isObject(mentions) ? mentions.parse : null;
    if (
      parse !== undefined &&
      (!Array.isArray(parse) || !parse.every((kind) => MENTION_KINDS.has(kind)))
    )
      return invalidForm('allowed_mentions.parse holds users, roles or everyone');
  }
  if ((typeof content !== 'string' || content.trim() === '') && embeds.length === 0)
    return discordError(50006, 'Cannot send an empty message', 'no content and no embed');
  return undefined;
}

// ---------------------------------------------------------------------------
// Mentions: what in a message would notify people, shown on the page.

/** Slack's mention syntax, parsed in any text of a message (docs.slack.dev, formatting). */
const SLACK_MENTION =
  /<(?:!(?:channel|here|everyone)|!subteam\^[^>|]+|@[UW][A-Z0-9]+)(?:\|[^>]*)?>/g;
/** Plain `@channel` and `@name`, parsed only with `link_names`. */
const SLACK_LINKED_NAME = /(?:^|\s)@[\w.-]+/g;

function slackTexts(message: Json): string[] {
  const texts = [typeof message.text === 'string' ? message.text : ''];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'text' && typeof inner === 'string') texts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks);
  return texts;
}

/** Discord's pinging mentions in `content`, with the kind `allowed_mentions.parse` names. */
const DISCORD_MENTIONS: [RegExp, string][] = [
  [/(?<!\\)@(?:everyone|here)/g, 'everyone'],
  [/(?<!\\)<@!?\d+>/g, 'users'],
  [/(?<!\\)<@&\d+>/g, 'roles'],
];

/**
 * What in this body would notify people when the real service posted it:
 * Slack's `<!channel>`-style mentions (and plain `@names` with
 * `link_names`); in Discord's `content`, the mentions `allowed_mentions`
 * lets ping (all of them when it is absent; embeds never ping). Empty for
 * the service's own messages, whatever the answers hold.
 */
export function pingingMentions(service: 'slack' | 'discord', body: string): string[] {
  const message = jsonObject(body);
  if (!message) return [];
  if (service === 'slack') {
    const found = slackTexts(message).flatMap((text) => [
      ...(text.match(SLACK_MENTION) ?? []),
      ...(message.link_names === true || message.link_names === 1
        ? (text.match(SLACK_LINKED_NAME) ?? []).map((name) => name.trim())
        : []),
    ]);
    return [...new Set(found)];
  }
  const content = typeof message.content === 'string' ? message.content : '';
  const mentions = isObject(message.allowed_mentions) ? message.allowed_mentions : undefined;
  const parse = Array.isArray(mentions?.parse) ? mentions.parse : undefined;
  const explicit = (kind: string) =>
    Array.isArray(mentions?.[kind]) && (mentions[kind] as unknown[]).length > 0;
  const allowed = (kind: string) =>
    mentions === undefined || parse?.includes(kind) === true || explicit(kind);
  const found = DISCORD_MENTIONS.flatMap(([pattern, kind]) =>
    allowed(kind) ? (content.match(pattern) ?? []) : [],
  );
  return [...new Set(found)];
}
