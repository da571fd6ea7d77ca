import { ServiceError } from '#domain/errors.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { errorJson } from '#http/respond.ts';
import { countViewOf } from './view-count.ts';

/**
 * `POST /f/{key}/views`: the view beacon (docs/analytics.md#views). The
 * hosted page and the embed send one per page load that shows the form
 * (`navigator.sendBeacon`, no body); the view rules are view-count.ts's.
 * The answer is 204 either way: a script learns nothing from it.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [{ status: 204, description: 'Counted (or a bot: not counted).', body: null }],
  errors: ['not_found'],
  cors: true,
});

export const handler = publicRoute(contract, async (event) => {
  if (!(await countViewOf(event))) {
    return errorJson(new ServiceError('not_found', 'No form has this address'));
  }
  return { statusCode: 204, headers: {}, body: '' };
});
