import { DOWNLOAD_LINK_SECONDS, downloadLink } from '#aws/uploads.ts';
import { config } from '#config';
import { notFound, ServiceError } from '#domain/errors.ts';
import { linkRefusal } from '#domain/file-scans.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { teamSubmission } from './get-submission.ts';

export const contract = defineContract({
  tag: 'Submissions',
  answers: [
    { status: 200, description: 'A presigned download link, valid 15 minutes.', body: 'FileLink' },
  ],
  // A link only for a clean file, or one never scanned (docs/submissions.md#file-links).
  errors: ['file_not_scanned', 'file_infected', 'file_scan_failed'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const submission = await teamSubmission(caller.team.teamId, pathParameters);
  const index = /^\d{1,3}$/.test(pathParameters.index ?? '') ? Number(pathParameters.index) : -1;
  const file = submission.meta.files?.[index];
  if (!file) throw notFound('File');
  const refusal = linkRefusal(file, config.malwareScanning);
  if (refusal) {
    const retryAfter = 'retryAfterSeconds' in refusal ? refusal.retryAfterSeconds : undefined;
    throw new ServiceError(refusal.code, refusal.message, {
      headers: retryAfter ? { 'retry-after': String(retryAfter) } : {},
    });
  }
  const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_SECONDS * 1000).toISOString();
  const url = await downloadLink(submission.formId, submission.id, index, file);
  return json(200, { url, name: file.name, mime: file.mime, expiresAt });
});
