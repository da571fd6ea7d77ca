import { config } from '../../config.ts';
import { toFullForm } from '../../domain/form-model.ts';
import { applyFormUpdate, parseFormUpdate } from '../../domain/form-update.ts';
import { changeTeamForm } from '../../store/forms.ts';
import { managementRoute } from '../management-route.ts';
import { json } from '../respond.ts';

export const handler = managementRoute(async ({ body, caller, pathParameters }) => {
  const update = parseFormUpdate(body);
  const form = await changeTeamForm(caller.team.teamId, pathParameters.id, (current) =>
    applyFormUpdate(current, update, caller.team.plan, new Date()),
  );
  return json(200, toFullForm(form, config.baseUrl));
});
