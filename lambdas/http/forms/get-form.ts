import { config } from '../../config.ts';
import { toFullForm } from '../../domain/form-model.ts';
import { getTeamForm } from '../../store/forms.ts';
import { managementRoute } from '../management-route.ts';
import { json } from '../respond.ts';

export const handler = managementRoute(async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  return json(200, toFullForm(form, config.baseUrl));
});
