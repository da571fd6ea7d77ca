import { config } from '#config';
import { toFormSummary } from '#domain/form-model.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listTeamForms } from '#store/forms.ts';

export const handler = managementRoute(async ({ caller }) => {
  const forms = await listTeamForms(caller.team.teamId);
  return json(200, { forms: forms.map((form) => toFormSummary(form, config.baseUrl)) });
});
