import { config } from '#config';
import { toFullForm } from '#domain/form-model.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { rotateFormKey } from '#store/forms.ts';

export const handler = managementRoute(async ({ caller, pathParameters }) => {
  const form = await rotateFormKey(caller.team.teamId, pathParameters.id, new Date());
  return json(200, toFullForm(form, config.baseUrl));
});
