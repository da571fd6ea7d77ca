import { UPLOADS_FIELD } from '#domain/direct-uploads.ts';

/**
 * What the submit endpoint takes, for the document: answers by field name
 * in any of three encodings. The endpoint reads the body itself (busboy for
 * multipart), so these are descriptions, not parsers.
 */
export function submitBodyMedia() {
  const answers = {
    type: 'object',
    description: `Answers by field name; names starting with \`_\` are special (\`_gotcha\`, \`_t\`, \`_redirect\`, \`_subject\`, \`_replyto\`, \`_captcha\`, \`${UPLOADS_FIELD}\`) and never stored as answers. \`${UPLOADS_FIELD}\` names direct uploads (ids from \`POST /s/{key}/uploads\`): comma-separated, repeated, or a JSON array.`,
  };
  return {
    'application/x-www-form-urlencoded': { ...answers, additionalProperties: { type: 'string' } },
    'multipart/form-data': {
      ...answers,
      additionalProperties: {
        anyOf: [
          { type: 'string' },
          { type: 'string', contentMediaType: 'application/octet-stream' },
        ],
      },
    },
    'application/json': { ...answers, additionalProperties: true },
  };
}
