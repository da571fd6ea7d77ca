import { gunzipSync } from 'node:zlib';
import { defineContract } from '#http/contract.ts';
import { REDOC_GZIP_BASE64 } from './redoc-bundle.generated.ts';
import { staticAnswer, staticAnswers } from './static-answer.ts';

/**
 * `GET /v1/docs/redoc.js`: Redoc's standalone bundle (embedded at build
 * time, see lib/openapi/redoc-asset.ts) followed by the page's start-up,
 * which draws the document named by the script tag's `data-spec` into
 * `#redoc`. The page then needs no inline script.
 */
const START = `
;(() => {
  const script = document.currentScript;
  Redoc.init(script.dataset.spec, {}, document.getElementById('redoc'));
})();
`;

const body = gunzipSync(Buffer.from(REDOC_GZIP_BASE64, 'base64')).toString('utf8') + START;

const script = {
  body,
  headers: {
    'content-type': 'text/javascript; charset=utf-8',
    'x-content-type-options': 'nosniff',
  },
};

export const contract = defineContract({
  tag: 'Docs',
  answers: staticAnswers('Redoc and the page start-up.', 'text/javascript'),
  errors: [],
});

export const handler = staticAnswer(contract, () => script);
