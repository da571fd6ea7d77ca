import { withSettingDefaults } from '#domain/form-defaults.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { Integration, IntegrationKind } from '#domain/integrations.ts';
import type { Submission } from '#domain/submission-model.ts';
import type { Webhook } from '#domain/webhooks.ts';
import { batchGetAll } from './batches.ts';
import { toSubmission } from './folder-reads.ts';
import { readIntegrations } from './integrations.ts';
import {
  formKey,
  integrationKey,
  stripPlumbing,
  submissionKey,
  teamKey,
  webhookKey,
} from './keys.ts';
import type { EmailHints } from './submissions.ts';
import { getItem } from './table.ts';
import type { Team } from './teams.ts';

/**
 * Workers read strongly consistent: an eventually consistent read may miss
 * the submission whose write woke them (and drop its delivery as "gone"), or
 * sign with a secret rotated a moment ago.
 */
const CONSISTENT = { consistent: true };

/** A form with its team and webhook, as they are now. */
export interface FormContext {
  form: FormRecord;
  team: Team;
  webhook: Webhook | undefined;
  /** Its connected integrations (the fan-out), or the one a delivery goes to (the worker). */
  integrations: Integration[];
}

/** What a delivery worker needs, read as it is now (messages carry ids only). */
export interface DeliveryContext extends FormContext {
  submission: Submission;
  /** `_subject` and `_replyto` as posted. */
  hints: EmailHints;
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
  const read = await readSubmissionContext(formId, submissionId);
  return read?.submission ? { ...read, submission: read.submission } : undefined;
}

/**
 * As readDeliveryContext, telling a deleted submission (`submission`
 * undefined) from a deleted form or team (undefined): the webhook worker
 * ends the delivery of the first, and the second takes its deliveries along.
 * With `channel`, that integration is read in the same BatchGet.
 */
export async function readSubmissionContext(
  formId: string,
  submissionId: string,
  channel?: IntegrationKind,
): Promise<(FormContext & { submission?: Submission; hints: EmailHints }) | undefined> {
  const items = await batchGetAll(
    [
      submissionKey(formId, submissionId),
      formKey(formId),
      webhookKey(formId),
      ...(channel ? [integrationKey(formId, channel)] : []),
    ],
    CONSISTENT,
  );
  const formContext = await withTeam(items);
  if (!formContext) return undefined;
  const submissionItem = items.find((item) => item.entity === 'submission');
  return {
    ...formContext,
    submission: submissionItem ? toSubmission(submissionItem) : undefined,
    hints: (submissionItem?.emailHints as EmailHints | undefined) ?? {},
  };
}

/**
 * The form, its webhook (one BatchGet), its team, and the integrations the
 * form lists (one more BatchGet, only when it lists any); undefined when
 * the form or team is gone.
 */
export async function readFormContext(formId: string): Promise<FormContext | undefined> {
  const context = await withTeam(
    await batchGetAll([formKey(formId), webhookKey(formId)], CONSISTENT),
  );
  if (!context?.form.integrations?.length) return context;
  return { ...context, integrations: await readIntegrations(formId, context.form.integrations) };
}

async function withTeam(items: Record<string, unknown>[]): Promise<FormContext | undefined> {
  const formItem = items.find((item) => item.entity === 'form');
  if (!formItem) return undefined;
  const form = withSettingDefaults(stripPlumbing<FormRecord>(formItem));
  const teamItem = await getItem(teamKey(form.teamId), CONSISTENT);
  if (!teamItem) return undefined;
  const webhookItem = items.find((item) => item.entity === 'webhook');
  return {
    form,
    team: stripPlumbing<Team>(teamItem),
    webhook: webhookItem ? stripPlumbing<Webhook>(webhookItem) : undefined,
    integrations: items
      .filter((item) => item.entity === 'integration')
      .map((item) => stripPlumbing<Integration>(item)),
  };
}
