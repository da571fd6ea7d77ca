import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type Action, useAction } from '../data.ts';
import { type SheetsIntegration, spreadsheetIdOf } from '../integrations-model.ts';
import { When } from '../time.tsx';
import { Confirm } from './confirm.tsx';
import { CopyField } from './copy-field.tsx';
import { IntegrationState } from './integration-state.tsx';
import { Deliveries } from './webhook-deliveries.tsx';

interface SheetsProps {
  formId: string;
  serviceAccountEmail: string | null;
  integration: SheetsIntegration | null;
  action: Action;
  /** On Free only a connected sheet shows, to see and disconnect. */
  pro: boolean;
  watchSince?: number;
  onChanged: (integration: SheetsIntegration | null, notice: string) => void;
}

/**
 * Google Sheets' section: whether the deployment can write to a sheet at
 * all (it needs a Google service account key: docs/integrations.md#google-cloud-setup),
 * the address an owner shares a spreadsheet with, connecting one by its
 * address or id, and, connected, its state, its rows' delivery log and
 * disconnect after a question.
 */
export function SheetsSection(props: SheetsProps) {
  const { serviceAccountEmail, integration } = props;
  return (
    <section class="integration" aria-labelledby="sheets-title">
      <h2 id="sheets-title">Google Sheets</h2>
      {integration ? (
        <SheetConnected {...props} integration={integration} />
      ) : serviceAccountEmail === null ? (
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
            Each stored submission is added as a row. First share the spreadsheet with this address
            as an editor (in Google Sheets: Share, paste the address, Editor), then connect it here.
          </p>
          <CopyField label="Address to share the sheet with" value={serviceAccountEmail} />
          {props.pro && (
            <SheetForm
              formId={props.formId}
              onSaved={(made) =>
                props.onChanged(made, 'Sheet connected: the next submission is added as a row.')
              }
            />
          )}
        </>
      )}
    </section>
  );
}

function SheetForm(props: { formId: string; onSaved: (sheet: SheetsIntegration) => void }) {
  const [spreadsheet, setSpreadsheet] = useState('');
  const [sheetName, setSheetName] = useState('');
  const save = useAction();
  const problem = save.error;
  return (
    <form
      class="url-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const saved = await save.run(() =>
          call('putIntegration', {
            params: { id: props.formId, kind: 'sheets' },
            body: {
              spreadsheetId: spreadsheetIdOf(spreadsheet),
              ...(sheetName.trim() ? { sheetName: sheetName.trim() } : {}),
            },
          }),
        );
        // The sheets kind's PUT answers the sheet (the union is by kind).
        if (saved && 'spreadsheetId' in saved) props.onSaved(saved);
      }}
    >
      <label for="sheet-spreadsheet">Spreadsheet (its address or id)</label>
      <input
        id="sheet-spreadsheet"
        required
        autoComplete="off"
        placeholder="https://docs.google.com/spreadsheets/d/…"
        value={spreadsheet}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? 'sheet-problem' : undefined}
        onInput={(event) => setSpreadsheet(event.currentTarget.value)}
      />
      <label for="sheet-name">Sheet (tab) name, if not the first</label>
      <input
        id="sheet-name"
        autoComplete="off"
        value={sheetName}
        onInput={(event) => setSheetName(event.currentTarget.value)}
      />
      <button type="submit" disabled={save.busy}>
        Connect<span class="visually-hidden"> Google Sheets</span>
      </button>
      {problem && (
        <p id="sheet-problem" class="field-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

function SheetConnected(props: SheetsProps & { integration: SheetsIntegration }) {
  const { formId, integration, action } = props;
  const [asking, setAsking] = useState(false);
  return (
    <>
      <IntegrationState integration={integration} />
      <dl class="meta">
        <dt>Spreadsheet</dt>
        <dd>
          <code>{integration.spreadsheetId}</code>
        </dd>
        <dt>Sheet</dt>
        <dd>{integration.sheetName}</dd>
        <dt>Last row added</dt>
        <dd>
          {integration.lastDeliveryAt ? <When at={integration.lastDeliveryAt} /> : 'Nothing yet'}
        </dd>
        <dt>Connected</dt>
        <dd>
          <When at={integration.connectedAt} />
        </dd>
      </dl>
      {props.serviceAccountEmail && (
        <CopyField label="Address the sheet is shared with" value={props.serviceAccountEmail} />
      )}
      <div class="tools">
        <button type="button" class="danger" disabled={action.busy} onClick={() => setAsking(true)}>
          Disconnect Google Sheets
        </button>
      </div>
      <Deliveries
        formId={formId}
        kind="sheets"
        title="Google Sheets deliveries"
        watchSince={props.watchSince}
        retry={props.pro}
      />
      {asking && (
        <Confirm
          title="Disconnect Google Sheets?"
          confirm="Disconnect"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void action.run(async () => {
              await call('deleteIntegration', { params: { id: formId, kind: 'sheets' } });
              props.onChanged(
                null,
                'Google Sheets disconnected: rows still waiting are cancelled.',
              );
            });
          }}
        >
          <p>
            No more rows are added; rows still waiting end as cancelled. The spreadsheet keeps the
            rows it has.
          </p>
        </Confirm>
      )}
    </>
  );
}
