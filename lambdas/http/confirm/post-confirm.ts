import { CONFIRM_OUTCOME_STATUS } from '#domain/confirmation.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { OUTCOME_ANSWERS } from './confirm-contract.ts';
import { confirm } from './confirm-link.ts';
import { CONFIRM_PAGE_HEADERS, outcomePage } from './confirm-pages.ts';

/**
 * `POST /c/{token}`: confirms the answer the link names (one transaction:
 * pending → confirmed, counted under the form's limit as a new post) and
 * answers a page in words; a second click says it is already confirmed.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [
    {
      status: 200,
      description: 'Confirmed now, or already confirmed by an earlier click.',
      body: { mediaType: 'text/html' },
    },
    ...OUTCOME_ANSWERS,
  ],
  errors: [],
});

export const handler = publicRoute(contract, async (event) => {
  const state = await confirm(event.pathParameters?.token, new Date());
  const outcome = state.state === 'ended' ? state.outcome : 'not_valid';
  return {
    statusCode: CONFIRM_OUTCOME_STATUS[outcome],
    headers: CONFIRM_PAGE_HEADERS,
    body: outcomePage(outcome, state.state === 'ended' ? state.againUrl : undefined),
  };
});
