import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { privacyExportQuery } from '#domain/privacy-input.ts';
import { isKept, keptFrom } from '#domain/retention.ts';
import { submissionView } from '#domain/submission-model.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { getSubmissionsById } from '#store/folder-reads.ts';
import { lookUpPerson, type PersonInForm, slices } from './person-submissions.ts';

/**
 * Lambda answers at most 6 MB a buffered response: the document stops short of it
 * (docs/privacy.md#export-by-email).
 */
export const MAX_DOCUMENT_BYTES = 5_000_000;

/**
 * `GET /v1/privacy/submissions?email=` (owners; docs/privacy.md#export-by-email):
 * every submission of the team's forms that holds the address, as one JSON
 * document (`{ "submissions": [...] }`, form by form, newest first in each),
 * an attachment. Submissions past their form's retention are left out, as
 * everywhere. The audit trail keeps the address's keyed hash only. It shares
 * a function with the erase (routes.ts group `privacy`), which a streamed
 * answer cannot: the document is built whole, up to MAX_DOCUMENT_BYTES.
 */
export const contract = defineContract({
  tag: 'Privacy',
  query: privacyExportQuery,
  answers: [
    {
      status: 200,
      description:
        'JSON, as an attachment: `{ "submissions": [{ formId, formName, id, createdAt, data, meta, files, isSpam, isTest }] }`.',
      body: { mediaType: 'application/json' },
      headers: { 'content-disposition': 'attachment; filename="submissions-<date>.json"' },
    },
  ],
  errors: ['owner_only', 'payload_too_large'],
});

export const handler = managementRoute(contract, async ({ event, caller, input }) => {
  requireOwner(caller);
  const { email } = input.query();
  const person = await lookUpPerson(caller.team.teamId, email);
  const now = new Date();
  const body = await documentOf(person.forms, now);
  await auditByCaller(caller, event, 'privacy.exported', null, { emailHash: person.hash });
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="submissions-${now.toISOString().slice(0, 10)}.json"`,
    },
    body,
  };
});

/** The document's text, read a batch of submissions at a time. */
async function documentOf(forms: readonly PersonInForm[], now: Date): Promise<string> {
  const entries: string[] = [];
  let bytes = 0;
  for (const { form, submissionIds } of forms) {
    const from = keptFrom(form.retentionDays, now, config.retentionDaySeconds);
    for (const ids of slices(submissionIds, 100)) {
      const found = await getSubmissionsById(form.id, ids);
      for (const submission of found.filter((s) => isKept(s, from))) {
        const { formId, id, createdAt, data, meta, isSpam, isTest } = submissionView(submission);
        const entry = JSON.stringify({
          formId,
          formName: form.name,
          id,
          createdAt,
          data,
          meta,
          files: (meta.files ?? []).map((file) => file.name),
          isSpam,
          isTest,
        });
        bytes += Buffer.byteLength(entry) + 1;
        if (bytes > MAX_DOCUMENT_BYTES) {
          throw new ServiceError(
            'payload_too_large',
            "This person's submissions pass 5 MB as one document: export each form's with its CSV export",
          );
        }
        entries.push(entry);
      }
    }
  }
  return `{"submissions":[${entries.join(',')}]}`;
}
