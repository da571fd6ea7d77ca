import type { FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';
import type { Webhook } from '#domain/webhooks.ts';
import { toSubmission } from './folder-reads.ts';
import { formKey, stripPlumbing, submissionKey, teamKey, webhookKey } from './keys.ts';
import { batchGetAll } from './retries.ts';
import type { EmailHints } from './submissions.ts';
import { getItem } from './table.ts';
import type { Team } from './teams.ts';

/** What a delivery worker needs, read as it is now (messages carry ids only). */
export interface DeliveryContext {
  submission: Submission;
  /** `_subject` and `_replyto` as posted. */
  hints: EmailHints;
  form: FormRecord;
  team: Team;
  webhook: Webhook | undefined;
}

/**
 * The submission, its form and webhook in one BatchGet, then the team.
 * Undefined when the submission or the form is gone (deleted before the
 * delivery): there is nothing to deliver.
 */
export async function readDeliveryContext(
  formId: string,
  submissionId: string,
): Promise<DeliveryContext | undefined> {
  const items = await batchGetAll([
    submissionKey(formId, submissionId),
    formKey(formId),
    webhookKey(formId),
  ]);
  const byKind = new Map(items.map((item) => [item.entity as string, item]));
  const submissionItem = byKind.get('submission');
  const formItem = byKind.get('form');
  if (!submissionItem || !formItem) return undefined;
  const form = stripPlumbing<FormRecord>(formItem);
  const teamItem = await getItem(teamKey(form.teamId));
  if (!teamItem) return undefined;
  const webhookItem = byKind.get('webhook');
  return {
    submission: toSubmission(submissionItem),
    hints: (submissionItem.emailHints as EmailHints | undefined) ?? {},
    form,
    team: stripPlumbing<Team>(teamItem),
    webhook: webhookItem ? stripPlumbing<Webhook>(webhookItem) : undefined,
  };
}
