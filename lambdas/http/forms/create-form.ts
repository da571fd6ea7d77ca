import { config } from '#config';
import { newForm } from '#domain/form-defaults.ts';
import { createFormInput } from '#domain/form-input.ts';
import { toFullForm } from '#domain/form-model.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { insertForm } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Forms',
  body: createFormInput,
  answers: [{ status: 201, description: 'The new form.', body: 'Form' }],
  errors: ['form_limit_reached'],
});

export const handler = managementRoute(contract, async ({ input, caller, event }) => {
  const request = input.body();
  const form = await insertForm(
    newForm({ teamId: caller.team.teamId, userId: caller.userId, ...request, now: new Date() }),
  );
  await auditByCaller(caller, event, 'form.created', form.id, { name: form.name, type: form.type });
  return json(201, toFullForm(form, config.baseUrl));
});
