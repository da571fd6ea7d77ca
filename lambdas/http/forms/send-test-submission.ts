import { randomUUIDv7 } from 'node:crypto';
import { newAnswerNames } from '#domain/answer-columns.ts';
import { notFound } from '#domain/errors.ts';
import { testSubmission } from '#domain/test-submission.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { header } from '#http/request.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { insertSubmission } from '#store/submissions.ts';

export const contract = defineContract({
  tag: 'Forms',
  answers: [{ status: 201, description: 'Stored.', body: 'SubmissionCreated' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, event, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const now = new Date();
  const submission = testSubmission(form, {
    id: randomUUIDv7(),
    userAgent: header(event, 'user-agent') ?? '',
    now,
  });
  // A test reaches paused and full forms too, and counts toward no limit.
  const outcome = await insertSubmission({
    submission,
    teamId: form.teamId,
    requireOpen: false,
    now,
    // Tests are rare and read no catalogue: their few names are always set,
    // which leaves names the catalogue holds as they were.
    newColumns: newAnswerNames(Object.keys(submission.data), undefined, form.fields),
  });
  if (!outcome.stored) throw notFound('Form');
  // A test goes out like a post: to the webhook and the notification address.
  await auditByCaller(caller, event, 'form.test_submitted', form.id, {
    submissionId: submission.id,
  });
  return json(201, { submissionId: submission.id });
});
