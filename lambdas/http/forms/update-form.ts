import { cancelFormClose, scheduleFormClose } from '#aws/scheduler.ts';
import { config } from '#config';
import { formChangeNotes } from '#domain/form-audit.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { toFullForm } from '#domain/form-model.ts';
import { applyFormUpdate, formUpdateInput } from '#domain/form-update.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import { changeTeamForm } from '#store/forms.ts';

export const contract = defineContract({
  tag: 'Forms',
  body: formUpdateInput,
  answers: [{ status: 200, description: 'The form as saved.', body: 'Form' }],
  errors: ['plan_required', 'conflict'],
});

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, event }) => {
    // Parsed once the form is found: another team's form is 404 whatever the body
    // (docs/api-basics.md#authentication).
    const { before, after } = await changeTeamForm(
      caller.team.teamId,
      pathParameters.id,
      (current) => applyFormUpdate(current, input.body(), caller.team.plan, new Date()),
    );
    await syncCloseSchedule(before, after);
    // What the save changed, in the team's audit trail (lambdas/domain/form-audit.ts).
    for (const note of formChangeNotes(before, after)) {
      await auditByCaller(caller, event, note.action, after.id, note.details);
    }
    return json(200, toFullForm(after, config.baseUrl));
  },
);

/**
 * After the save: a schedule that outlives its date is harmless (the closer
 * checks the date), and the submit path refuses posts past `autoCloseAt`
 * itself, so a failure here is logged for operators rather than undoing a
 * saved change.
 */
async function syncCloseSchedule(before: FormRecord, after: FormRecord): Promise<void> {
  if (before.autoCloseAt === after.autoCloseAt) return;
  try {
    if (after.autoCloseAt) await scheduleFormClose(after.id, after.autoCloseAt);
    else await cancelFormClose(after.id);
  } catch (error) {
    log.error('close schedule not updated', { formId: after.id, ...errorFields(error) });
  }
}
