import { exportFileName, exportQuery } from '#domain/submission-export.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { streamingRoute } from '#http/streaming-route.ts';
import { getTeamFormWithColumns } from '#store/forms.ts';
import { exportBody } from './export-body.ts';

export const contract = defineContract({
  tag: 'Submissions',
  description:
    "Columns as docs/submissions.md, \"CSV columns\": `id,createdAt`, the answer columns, then the flags and visitor meta. `header=ids` (the default, for scripts) names them by field id and answer name; `header=labels` by the fields' labels and the fixed columns in words (`Submission`, `Received`, … `Files`). A file field's column names its files and links to the submission's page in the dashboard (`<names> — <base>/app/forms/{id}/submissions/{submissionId}`), a link that lasts, unlike a file's signed URL; `files` lists every file's name.",
  query: exportQuery,
  answers: [
    {
      status: 200,
      description: 'CSV, streamed (UTF-8 with BOM), as an attachment.',
      body: { mediaType: 'text/csv' },
      headers: { 'content-disposition': 'attachment; filename="<form>-<date>.csv"' },
    },
  ],
  errors: ['csrf'],
});

export const handler = streamingRoute(
  contract,
  async ({ event, caller, pathParameters, input }) => {
    const { form, columns } = await getTeamFormWithColumns(caller.team.teamId, pathParameters.id);
    const { filter, header } = input.query();
    // The moment the export covers: API Gateway's receipt of the request.
    const startedAt = new Date(event.requestContext?.requestTimeEpoch ?? Date.now());
    await auditByCaller(caller, event, 'submissions.exported', form.id, { filter });
    return {
      statusCode: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${exportFileName(form.name, filter, startedAt)}"`,
      },
      body: exportBody(form, columns, filter, startedAt.toISOString(), header),
    };
  },
  // A GET that records `submissions.exported` in the member's name: a session proves its
  // origin, as the export by email does (a link on another site would write the event).
  { originProofOnReads: true },
);
