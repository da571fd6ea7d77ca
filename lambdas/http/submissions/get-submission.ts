import { config } from '#config';
import { emailOutcome } from '#domain/email-outcomes.ts';
import { notFound } from '#domain/errors.ts';
import { isUuid } from '#domain/ids.ts';
import { isKept, keptFrom } from '#domain/retention.ts';
import { submissionView } from '#domain/submission-model.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getEmailMarks } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';
import { getSubmission } from '#store/submissions.ts';

/** Reading a submission leaves it unread: only PATCH changes `read`. */
export const contract = defineContract({
  tag: 'Submissions',
  answers: [{ status: 200, description: 'The submission.', body: 'Submission' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const { id: formId, submissionId } = pathParameters;
  // The email marks are read beside the form and the submission, shown only once those
  // proved the submission the caller's.
  const [submission, marks] = await Promise.all([
    teamSubmission(caller.team.teamId, pathParameters),
    formId && isUuid(submissionId) ? getEmailMarks(formId, submissionId) : undefined,
  ]);
  return json(200, {
    ...submissionView(submission),
    emails: {
      notification: emailOutcome(marks?.notification),
      autoreply: emailOutcome(marks?.autoreply),
    },
  });
});

/**
 * A submission of a form of the caller's team; both reads in one round trip.
 * Paths name the form `{id}` like every form route: API Gateway allows one
 * variable name per path level.
 */
export async function teamSubmission(
  teamId: string,
  { id: formId, submissionId }: Record<string, string | undefined>,
) {
  const [form, submission] = await Promise.all([
    getTeamForm(teamId, formId),
    formId && isUuid(submissionId) ? getSubmission(formId, submissionId) : undefined,
  ]);
  if (!submission || submission.formId !== form.id) throw notFound('Submission');
  // Past the form's retention it is gone, files too, before the purger deletes it.
  const from = keptFrom(form.retentionDays, new Date(), config.retentionDaySeconds);
  if (!isKept(submission, from)) throw notFound('Submission');
  return submission;
}
