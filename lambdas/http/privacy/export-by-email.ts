import { Readable } from 'node:stream';
import { config } from '#config';
import { type PersonExportBatch, personDocument, suppressedView } from '#domain/person-export.ts';
import { privacyExportQuery } from '#domain/privacy-input.ts';
import { isKept, keptFrom } from '#domain/retention.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { streamingRoute } from '#http/streaming-route.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { getStoredSubmissionsById } from '#store/folder-reads.ts';
import { findSuppression } from '#store/suppressions.ts';
import { lookUpPerson, type PersonInForm, slices } from './person-submissions.ts';

/**
 * Lambda streams at most 200 MB a response (its documented maximum for
 * response streaming; API Gateway's STREAM mode sets no size of its own). The
 * document stops a little short of it, cut, rather than being cut by the
 * runtime without a word in the log (docs/privacy.md#when-an-export-fails).
 */
export const MAX_DOCUMENT_BYTES = 190_000_000;

/** Submissions read at once: one BatchGet, and all the document holds in memory. */
const BATCH = 100;

/**
 * `GET /v1/privacy/submissions?email=` (owners; docs/privacy.md#export-by-email):
 * every submission of the team's forms that holds the address, as one JSON
 * document (`{ "submissions": [...] }`, form by form, newest first in each),
 * an attachment, streamed as it is read (a function of its own, routes.ts).
 * Submissions past their form's retention are left out, as everywhere. The
 * audit trail keeps the address's keyed hash only; a session's request must
 * come from the dashboard (403 `csrf` otherwise), as its writes must.
 */
export const contract = defineContract({
  tag: 'Privacy',
  query: privacyExportQuery,
  answers: [
    {
      status: 200,
      description:
        'JSON, streamed, as an attachment: `{ "submissions": [{ formId, formName, id, createdAt, data, replyTo, subject, meta, files, isSpam, isTest }], "suppressed": { email, reason, bounceType, at, formId, submissionId } | null }`. A document cut short by a failure ends without its closing `]`.',
      body: { mediaType: 'application/json' },
      headers: { 'content-disposition': 'attachment; filename="submissions-<date>.json"' },
    },
  ],
  // `csrf`: a session's GET here needs the same origin, as writes do (callerAuth).
  errors: ['owner_only', 'csrf'],
});

export const handler = streamingRoute(
  contract,
  async ({ event, caller, input }) => {
    requireOwner(caller);
    const { email } = input.query();
    const person = await lookUpPerson(caller.team.teamId, email);
    // The moment the export covers: API Gateway's receipt of the request.
    const startedAt = new Date(event.requestContext?.requestTimeEpoch ?? Date.now());
    await auditByCaller(caller, event, 'privacy.exported', null, { emailHash: person.hash });
    const document = personDocument(
      batchesOf(person.forms, startedAt),
      MAX_DOCUMENT_BYTES,
      // The team's suppression list keeps the address too (docs/privacy.md#export-by-email).
      async () => ({
        suppressed: suppressedView(await findSuppression(caller.team.teamId, email)),
      }),
    );
    return {
      statusCode: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="submissions-${startedAt.toISOString().slice(0, 10)}.json"`,
      },
      // One chunk in the buffer: the next batch is read only once this one is taken.
      body: Readable.from(document, { highWaterMark: 1 }),
    };
    // A GET that records `privacy.exported` in the owner's name: a session proves its origin.
  },
  { originProofOnReads: true },
);

/** The person's submissions still kept, form by form, newest first, a BatchGet at a time. */
async function* batchesOf(
  forms: readonly PersonInForm[],
  now: Date,
): AsyncGenerator<PersonExportBatch> {
  for (const { form, submissionIds } of forms) {
    const from = keptFrom(form.retentionDays, now, config.retentionDaySeconds);
    // Ids are UUID v7: the greatest is the newest, and each BatchGet answers its slice newest first.
    const newestFirst = [...submissionIds].sort().reverse();
    for (const ids of slices(newestFirst, BATCH)) {
      const found = await getStoredSubmissionsById(form.id, ids);
      const kept = found.filter(({ submission }) => isKept(submission, from));
      yield {
        formName: form.name,
        submissions: kept.map(({ submission }) => submission),
        hints: new Map(kept.map(({ submission, hints }) => [submission.id, hints])),
      };
    }
  }
}
