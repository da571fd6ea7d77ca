import { config } from '#config';
import { toFullForm } from '#domain/form-model.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Forms',
  answers: [{ status: 200, description: 'The form.', body: 'Form' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  return json(200, toFullForm(form, config.baseUrl));
});
