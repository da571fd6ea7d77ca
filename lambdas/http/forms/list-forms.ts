import { config } from '../../config.ts';
import { toFormSummary } from '../../domain/form-model.ts';
import { listTeamForms } from '../../store/forms.ts';
import { managementRoute } from '../management-route.ts';
import { json } from '../respond.ts';

export const handler = managementRoute(async ({ caller }) => {
  const forms = await listTeamForms(caller.team.teamId);
  return json(200, { forms: forms.map((form) => toFormSummary(form, config.baseUrl)) });
});
