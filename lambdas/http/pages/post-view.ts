import { ServiceError } from '#domain/errors.ts';
import { stepOf } from '#domain/funnel.ts';
import { viewBeaconQuery } from '#domain/funnel-query.ts';
import { defineContract } from '#http/contract.ts';
import { parse } from '#http/parse.ts';
import { publicRoute } from '#http/public-route.ts';
import { errorJson } from '#http/respond.ts';
import { countStepOf, countViewOf } from './view-count.ts';

/**
 * `POST /f/{key}/views`: the view beacon (docs/analytics.md#views). The
 * hosted page and the embed send one per page load that shows the form
 * (`navigator.sendBeacon`, no body); the view rules are view-count.ts's.
 * With `?reached=started` (the first answer) or `?reached=<n>` (the first
 * arrival on page n, from 2) it is a step beacon of the funnel instead
 * (docs/analytics.md#the-funnel): the same rules, its own budget, and
 * nothing answered is sent. The answer is 204 either way: a script learns
 * nothing from it.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  description:
    'Without a query, a view. With `reached`, a step of the funnel (docs/analytics.md#the-funnel): `started` at the first answer, or the page number (2 to the form’s page count) on arriving there; any other value is 400 `invalid_request` at `reached`. Bots are not counted, nor a visitor’s views past 10 a minute, nor their steps past 10 a minute (a budget of its own); nothing about the visitor is kept.',
  query: viewBeaconQuery,
  answers: [{ status: 204, description: 'Counted (or a bot: not counted).', body: null }],
  errors: ['invalid_request', 'not_found'],
  cors: true,
});

export const handler = publicRoute(contract, async (event) => {
  try {
    const { reached } = parse(viewBeaconQuery, event.queryStringParameters ?? {}, 'query string');
    const found =
      reached === undefined ? await countViewOf(event) : await countStepOf(event, stepOf(reached));
    if (!found) return errorJson(new ServiceError('not_found', 'No form has this address'));
  } catch (error) {
    if (error instanceof ServiceError) return errorJson(error);
    throw error;
  }
  return { statusCode: 204, headers: {}, body: '' };
});
