import { config } from '#config';
import { toFullForm } from '#domain/form-model.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { rotateFormKey } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Forms',
  answers: [{ status: 200, description: 'The form with its new key.', body: 'Form' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  const form = await rotateFormKey(caller.team.teamId, pathParameters.id, new Date());
  // The key is public (it is in every page that posts to the form): no secret is recorded.
  await auditByCaller(caller, event, 'form.key_rotated', form.id);
  return json(200, toFullForm(form, config.baseUrl));
});
