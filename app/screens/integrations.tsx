import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { ChatKind } from '#domain/integrations.ts';
import { call } from '../api.ts';
import { useAction, useQuery } from '../data.ts';
import { CHAT_KINDS_SHOWN, type Integrations } from '../integrations-model.ts';
import { Loading, Outcome, Problem } from '../parts/feedback.tsx';
import { WorkspaceContext } from '../parts/form-workspace.tsx';
import { ChatSection } from '../parts/integration-chat.tsx';
import { SheetsSection } from '../parts/integration-sheets.tsx';
import { SendTestButton } from '../parts/send-test-button.tsx';
import { useTestWatch } from '../parts/webhook-deliveries.tsx';
import { useSession } from '../session.ts';

/**
 * A form's integrations (docs/dashboard.md#integrations): Slack and Discord
 * (connect, state, last error, a new URL, disconnect, deliveries and retry)
 * and Google Sheets (the address to share a sheet with).
 */
export function IntegrationsScreen(props: { formId: string }) {
  const { formId } = props;
  const session = useSession();
  const action = useAction();
  const query = useQuery(formId, (signal) =>
    call('getIntegrations', { params: { id: formId }, signal }),
  );
  const { data, error, reload } = query;
  const [watchSince, setWatchSince] = useState<number>();
  // A test sent from here or from the workspace's menu: the logs and states are read again.
  const { testsSent } = useContext(WorkspaceContext);
  const testsSeen = useRef(testsSent);
  useEffect(() => {
    if (testsSent === testsSeen.current) return;
    testsSeen.current = testsSent;
    setWatchSince(Date.now());
  }, [testsSent]);
  useTestWatch(watchSince, reload);
  const changed = <K extends ChatKind | 'sheets'>(
    kind: K,
    next: Integrations[K],
    notice: string,
  ) => {
    if (data) query.setData({ ...data, [kind]: next });
    action.setNotice(notice);
  };
  const connected = data && (data.sheets || CHAT_KINDS_SHOWN.some((kind) => data[kind]));
  const pro = session.team.plan === 'pro';

  return (
    <main id="main" class="integrations">
      <h2>Integrations</h2>
      <Outcome action={action} />
      {error ? (
        <Problem error={error} retry={reload} />
      ) : !data ? (
        <Loading />
      ) : !pro ? (
        <>
          <p class="warning">
            Integrations are a Pro feature: this team is on the Free plan, so nothing is sent to
            Slack, Discord or Google Sheets.
            {connected && ' What was connected on Pro can still be seen and disconnected here.'}
          </p>
          {data.sheets && (
            <SheetsSection
              formId={formId}
              serviceAccountEmail={data.serviceAccountEmail}
              integration={data.sheets}
              action={action}
              pro={false}
              onChanged={(next, notice) => changed('sheets', next, notice)}
            />
          )}
          {CHAT_KINDS_SHOWN.filter((kind) => data[kind]).map((kind) => (
            <ChatSection
              key={kind}
              formId={formId}
              kind={kind}
              integration={data[kind]}
              action={action}
              pro={false}
              onChanged={(next, notice) => changed(kind, next, notice)}
            />
          ))}
        </>
      ) : (
        <>
          {connected && (
            <div class="tools">
              <SendTestButton
                formId={formId}
                action={action}
                notice="Test submission sent: its deliveries show below."
                onSent={setWatchSince}
              />
            </div>
          )}
          {CHAT_KINDS_SHOWN.map((kind) => (
            <ChatSection
              key={kind}
              formId={formId}
              kind={kind}
              integration={data[kind]}
              action={action}
              pro
              watchSince={watchSince}
              onChanged={(next, notice) => changed(kind, next, notice)}
            />
          ))}
          <SheetsSection
            formId={formId}
            serviceAccountEmail={data.serviceAccountEmail}
            integration={data.sheets}
            action={action}
            pro
            watchSince={watchSince}
            onChanged={(next, notice) => changed('sheets', next, notice)}
          />
        </>
      )}
    </main>
  );
}
