import { config } from '#config';
import { newForm } from '#domain/form-defaults.ts';
import { createFormInput } from '#domain/form-input.ts';
import { toFullForm } from '#domain/form-model.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { json } from '#http/respond.ts';
import { insertForm } from '#store/forms.ts';

export const handler = managementRoute(async ({ body, caller }) => {
  const input = parse(createFormInput, body);
  const form = await insertForm(
    newForm({ teamId: caller.team.teamId, userId: caller.userId, ...input, now: new Date() }),
  );
  return json(201, toFullForm(form, config.baseUrl));
});
