import { planRequired, ServiceError } from '#domain/errors.ts';
import { sheetsIntegrationInput } from '#domain/integration-input.ts';
import { connectSheets, toSheetsIntegrationView } from '#domain/integrations.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import type { Contract } from '#http/contract.ts';
import type { ManagementRequest } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { sheetsClient } from '#net/google-sheets.ts';
import { checkSheet } from '#net/sheet-connect.ts';
import { getTeamForm } from '#store/forms.ts';
import { saveIntegration } from '#store/integrations.ts';

/**
 * `PUT /v1/forms/{id}/integrations/sheets` (docs/integrations.md#connecting-a-sheet):
 * the spreadsheet is read with the service account's token before anything
 * is saved (checkSheet), so an owner hears at once that it is not shared,
 * does not exist or lacks the sheet; then the integration is saved with
 * the sheet's name as the spreadsheet spells it.
 */
export async function connectSheet({
  input,
  caller,
  pathParameters,
  event,
}: ManagementRequest<Contract>) {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const { spreadsheetId, sheetName } = input.bodyAs(sheetsIntegrationInput);
  if (caller.team.plan !== 'pro') throw planRequired('Google Sheets');
  const client = sheetsClient();
  if (!client) {
    throw new ServiceError(
      'integration_not_configured',
      'Google Sheets is not set up on this deployment (no service account key)',
    );
  }
  const check = await checkSheet(client, spreadsheetId, sheetName);
  switch (check.kind) {
    case 'not_shared':
      throw new ServiceError(
        'sheet_not_shared',
        `The spreadsheet is not shared with ${check.serviceAccountEmail}: share it with that address as an editor`,
        {
          issues: [
            {
              path: 'spreadsheetId',
              code: 'sheet_not_shared',
              message: `Share it with ${check.serviceAccountEmail}`,
            },
          ],
        },
      );
    case 'spreadsheet_not_found':
      throw new ServiceError('spreadsheet_not_found', 'No spreadsheet has that id', {
        issues: [
          {
            path: 'spreadsheetId',
            code: 'spreadsheet_not_found',
            message: 'No spreadsheet has that id',
          },
        ],
      });
    case 'sheet_not_found':
      throw new ServiceError(
        'sheet_not_found',
        `The spreadsheet has no sheet of that name; its sheets: ${check.sheetNames.slice(0, 20).join(', ')}`,
        {
          issues: [
            { path: 'sheetName', code: 'sheet_not_found', message: 'No sheet of that name' },
          ],
        },
      );
    case 'unavailable':
      throw new ServiceError('busy', `Google could not be asked (${check.reason}); try again`, {
        headers: { 'retry-after': '5' },
      });
    case 'ok':
      break;
  }
  const now = new Date();
  const target = { spreadsheetId, sheetName: check.sheetName };
  const { before, after } = await saveIntegration(
    caller.team.teamId,
    form.id,
    'sheets',
    (_, existing) => connectSheets(form.id, target, now, existing),
  );
  if (!before) {
    await auditByCaller(caller, event, 'integration.connected', form.id, { kind: 'sheets' });
  } else if (before.connectedAt !== after.connectedAt) {
    await auditByCaller(caller, event, 'integration.url_changed', form.id, { kind: 'sheets' });
  }
  return json(200, toSheetsIntegrationView(after));
}
