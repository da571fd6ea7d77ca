import { defineContract } from '#http/contract.ts';
import { staticAnswer, staticAnswers } from '#http/docs/static-answer.ts';
import { embedScript } from './embed-script.ts';

/**
 * `GET /embed.js`: the client of the hosted page and of the embed
 * (`client/form-client.ts`, bundled at build time by
 * `node lib/pages/write-embed.ts`). Any website may load it; cacheable five
 * minutes with an ETag, like the docs script.
 */
const script = {
  body: embedScript(),
  headers: {
    'content-type': 'text/javascript; charset=utf-8',
    'x-content-type-options': 'nosniff',
    // Loadable by pages that require CORP of what they embed (COEP).
    'cross-origin-resource-policy': 'cross-origin',
  },
};

export const contract = defineContract({
  tag: 'Hosted forms',
  answers: staticAnswers(
    'The client of the hosted page and of the embed (no framework, one file).',
    'text/javascript',
  ),
  errors: [],
  // A page of another site may fetch it (a module script, `crossorigin`).
  cors: true,
});

export const handler = staticAnswer(contract, () => script);
