import { config } from '../../config.ts';
import { toFullForm } from '../../domain/form-model.ts';
import { rotateFormKey } from '../../store/forms.ts';
import { managementRoute } from '../management-route.ts';
import { json } from '../respond.ts';

export const handler = managementRoute(async ({ caller, pathParameters }) => {
  const form = await rotateFormKey(caller.team.teamId, pathParameters.id, new Date());
  return json(200, toFullForm(form, config.baseUrl));
});
