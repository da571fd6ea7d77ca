import { ServiceError } from '#domain/errors.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { errorJson } from '#http/respond.ts';
import { countViewOf } from './view-count.ts';

/**
 * An empty 1 × 1 image: text (SVG), so API Gateway passes it through with
 * no binary media type, and nothing a page could show.
 */
export const VIEW_IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

/**
 * `GET /f/{key}/views`: the view image (docs/analytics.md#views), for a page
 * that runs no script: the HTML form of the dashboard's Share screen carries
 * `<img src=".../f/{key}/views" hidden>`, and the hosted page one inside
 * `<noscript>`. The same view rules as the beacon (view-count.ts); never
 * cached, so each page load asks again.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [
    {
      status: 200,
      description: 'An empty 1 × 1 image (counted, or a bot: not counted).',
      body: { mediaType: 'image/svg+xml' },
    },
  ],
  errors: ['not_found'],
  cors: true,
});

export const handler = publicRoute(contract, async (event) => {
  if (!(await countViewOf(event))) {
    return errorJson(new ServiceError('not_found', 'No form has this address'));
  }
  return {
    statusCode: 200,
    headers: {
      'content-type': 'image/svg+xml',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: VIEW_IMAGE,
  };
});
