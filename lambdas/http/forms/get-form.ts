import { config } from '#config';
import { toFullForm } from '#domain/form-model.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';

export const handler = managementRoute(async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  return json(200, toFullForm(form, config.baseUrl));
});
