import { config } from '../../config.ts';
import { invalidRequest } from '../../domain/errors.ts';
import { duplicateForm } from '../../domain/form-defaults.ts';
import { duplicateFormInput, duplicateName } from '../../domain/form-input.ts';
import { toFullForm } from '../../domain/form-model.ts';
import { getTeamForm, insertForm } from '../../store/forms.ts';
import { managementRoute } from '../management-route.ts';
import { parse } from '../parse.ts';
import { json } from '../respond.ts';

export const handler = managementRoute(async ({ body, caller, pathParameters }) => {
  const { nameSuffix } = parse(duplicateFormInput, body);
  const source = await getTeamForm(caller.team.teamId, pathParameters.id);
  const name = duplicateName(source.name, nameSuffix);
  if (!name) {
    throw invalidRequest('The copy’s name would exceed 200 characters', [
      {
        path: 'nameSuffix',
        code: 'too_big',
        message: 'Name plus suffix must be 1 to 200 characters',
      },
    ]);
  }
  const copy = await insertForm(
    duplicateForm(source, { name, userId: caller.userId, now: new Date() }),
  );
  return json(201, toFullForm(copy, config.baseUrl));
});
