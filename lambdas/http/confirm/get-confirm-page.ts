import { CONFIRM_OUTCOME_STATUS } from '#domain/confirmation.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { OUTCOME_ANSWERS } from './confirm-contract.ts';
import { lookUp } from './confirm-link.ts';
import { CONFIRM_PAGE_HEADERS, confirmButtonPage, outcomePage } from './confirm-pages.ts';

/**
 * `GET /c/{token}`: the page of a confirmation link, with one button that
 * confirms (a POST to the same address). Opening it changes nothing: mail
 * security scanners open every link of an email (README, "Confirming by
 * email").
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [
    {
      status: 200,
      description: 'The button “Confirm my answer”, or the words of an answer already confirmed.',
      body: { mediaType: 'text/html' },
    },
    ...OUTCOME_ANSWERS,
  ],
  errors: [],
});

export const handler = publicRoute(contract, async (event) => {
  const state = await lookUp(event.pathParameters?.token, new Date());
  if (state.state === 'open') {
    return {
      statusCode: 200,
      headers: CONFIRM_PAGE_HEADERS,
      body: confirmButtonPage(state.formName),
    };
  }
  return {
    statusCode: CONFIRM_OUTCOME_STATUS[state.outcome],
    headers: CONFIRM_PAGE_HEADERS,
    body: outcomePage(state.outcome, state.againUrl),
  };
});
