import { defineContract } from '#http/contract.ts';
import document from '#openapi' with { type: 'json' };
import { staticAnswer, staticAnswers } from './static-answer.ts';

/**
 * `GET /v1/openapi.json`: the OpenAPI 3.1 document, public and cacheable:
 * `openapi.json` as `npm run openapi` wrote it from the routes' contracts
 * (bundled; a test keeps the file fresh), in the same text.
 */
const answer = {
  body: `${JSON.stringify(document, null, 2)}\n`,
  headers: { 'content-type': 'application/json; charset=utf-8' },
};

export const contract = defineContract({
  tag: 'Docs',
  answers: staticAnswers('This document.', 'application/json'),
  errors: [],
  cors: true,
});

export const handler = staticAnswer(contract, () => answer);
