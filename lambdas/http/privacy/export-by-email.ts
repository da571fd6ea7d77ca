import { Readable } from 'node:stream';
import { config } from '#config';
import { privacyExportQuery } from '#domain/privacy-input.ts';
import { isKept, keptFrom } from '#domain/retention.ts';
import { submissionView } from '#domain/submission-model.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { streamingRoute } from '#http/streaming-route.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { getSubmissionsById } from '#store/folder-reads.ts';
import { lookUpPerson, type PersonInForm, slices } from './person-submissions.ts';

/**
 * `GET /v1/privacy/submissions?email=` (owners; docs/privacy.md#export-by-email):
 * every submission of the team's forms that holds the address, as one JSON
 * document streamed a batch at a time (`{ "submissions": [...] }`, by form,
 * newest first in each). Submissions past their form's retention are left
 * out, as everywhere. The audit trail keeps the address's keyed hash only.
 */
export const contract = defineContract({
  tag: 'Privacy',
  query: privacyExportQuery,
  answers: [
    {
      status: 200,
      description:
        'JSON, streamed, as an attachment: `{ "submissions": [{ formId, formName, id, createdAt, data, meta, files }] }`.',
      body: { mediaType: 'application/json' },
      headers: { 'content-disposition': 'attachment; filename="submissions-<date>.json"' },
    },
  ],
  errors: ['owner_only'],
});

export const handler = streamingRoute(contract, async ({ event, caller, input }) => {
  requireOwner(caller);
  const { email } = input.query();
  const person = await lookUpPerson(caller.team.teamId, email);
  await auditByCaller(caller, event, 'privacy.exported', null, { emailHash: person.hash });
  const day = new Date().toISOString().slice(0, 10);
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="submissions-${day}.json"`,
    },
    body: Readable.from(documentOf(person.forms, new Date())),
  };
});

/** The document's text, a batch of submissions at a time. */
async function* documentOf(forms: readonly PersonInForm[], now: Date): AsyncGenerator<string> {
  yield '{"submissions":[';
  let first = true;
  for (const { form, submissionIds } of forms) {
    const from = keptFrom(form.retentionDays, now, config.retentionDaySeconds);
    for (const ids of slices(submissionIds, 100)) {
      const found = await getSubmissionsById(form.id, ids);
      for (const submission of found.filter((s) => isKept(s, from))) {
        const { formId, id, createdAt, data, meta, isSpam, isTest } = submissionView(submission);
        const entry = {
          formId,
          formName: form.name,
          id,
          createdAt,
          data,
          meta,
          files: (meta.files ?? []).map((file) => file.name),
          isSpam,
          isTest,
        };
        yield `${first ? '' : ','}${JSON.stringify(entry)}`;
        first = false;
      }
    }
  }
  yield ']}';
}
