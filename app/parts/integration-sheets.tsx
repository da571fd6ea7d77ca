import { CopyField } from './copy-field.tsx';

/**
 * Google Sheets' section: whether the deployment can write to a sheet at
 * all (it needs a Google service account key: docs/integrations.md#google-cloud-setup)
 * and, when it can, the address an owner shares a spreadsheet with.
 */
export function SheetsSection(props: { serviceAccountEmail: string | null }) {
  const { serviceAccountEmail } = props;
  return (
    <section class="integration" aria-labelledby="sheets-title">
      <h2 id="sheets-title">Google Sheets</h2>
      {serviceAccountEmail === null ? (
        <p class="hint">
          This service has no Google key, so submissions cannot be written to a spreadsheet yet.
          Whoever runs the service turns it on: they create a Google Cloud service account with the
          Google Sheets API enabled, store its JSON key in AWS Secrets Manager and deploy with that
          secret named (the steps are in the service’s Integrations guide, under Google Cloud
          setup).
        </p>
      ) : (
        <>
          <p class="hint">
            To have each submission added as a row, share the spreadsheet with this address as an
            editor (in Google Sheets: Share, paste the address, Editor).
          </p>
          <CopyField label="Address to share the sheet with" value={serviceAccountEmail} />
          <p class="hint">Connecting a sheet from here comes with the next version.</p>
        </>
      )}
    </section>
  );
}
