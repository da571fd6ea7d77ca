import { config } from '#config';
import { toFormSummary } from '#domain/form-model.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listTeamForms } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Forms',
  answers: [{ status: 200, description: 'The team’s forms, newest first.', body: 'FormList' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  const forms = await listTeamForms(caller.team.teamId);
  return json(200, { forms: forms.map((form) => toFormSummary(form, config.baseUrl)) });
});
