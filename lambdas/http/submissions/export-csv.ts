import { exportFileName, exportQuery } from '#domain/submission-export.ts';
import { parse } from '#http/parse.ts';
import { streamingRoute } from '#http/streaming-route.ts';
import { getTeamFormWithColumns } from '#store/forms.ts';
import { exportBody } from './export-body.ts';

export const handler = streamingRoute(async ({ event, caller, pathParameters, query }) => {
  const { form, columns } = await getTeamFormWithColumns(caller.team.teamId, pathParameters.id);
  const { filter } = parse(exportQuery, query, 'query string');
  // The moment the export covers: API Gateway's receipt of the request.
  const startedAt = new Date(event.requestContext?.requestTimeEpoch ?? Date.now());
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${exportFileName(form.name, filter, startedAt)}"`,
    },
    body: exportBody(form, columns, filter, startedAt.toISOString()),
  };
});
