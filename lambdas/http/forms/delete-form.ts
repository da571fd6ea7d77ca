import { cancelFormClose } from '#aws/scheduler.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import { deleteTeamForm } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Forms',
  answers: [{ status: 200, description: 'Deleted.', body: 'Ok' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  const form = await deleteTeamForm(caller.team.teamId, pathParameters.id);
  await auditByCaller(caller, event, 'form.deleted', form.id, { name: form.name });
  if (form.autoCloseAt) {
    // A leftover schedule would find no form and do nothing; deleting it is tidiness.
    await cancelFormClose(form.id).catch((error: unknown) =>
      log.warn('close schedule of a deleted form not removed', {
        formId: form.id,
        ...errorFields(error),
      }),
    );
  }
  return json(200, { ok: true });
});
