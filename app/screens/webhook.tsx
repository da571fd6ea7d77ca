import { ApiError, call } from '../api.ts';
import { useAction, useQuery } from '../data.ts';
import type { Webhook } from '../model.ts';
import { Loading, Outcome, Problem } from '../parts/feedback.tsx';
import { Connected } from '../parts/webhook-connected.tsx';
import { Connect } from '../parts/webhook-url-form.tsx';
import { useSession } from '../session.ts';

/**
 * A form's webhook: connect an https:// address, change it, reveal, copy and
 * rotate the signing secret, disconnect; and the delivery log with retry.
 */
export function WebhookScreen(props: { formId: string }) {
  const { formId } = props;
  const session = useSession();
  const action = useAction();
  const query = useQuery(formId, async (signal): Promise<Webhook | null> => {
    try {
      return await call('getWebhook', { params: { id: formId }, signal });
    } catch (failure) {
      // The form exists but has no webhook: the screen offers to connect one.
      if (
        failure instanceof ApiError &&
        failure.status === 404 &&
        failure.message.startsWith('Webhook')
      )
        return null;
      throw failure;
    }
  });
  const { data: webhook, error, reload: load } = query;
  const changed = (next: Webhook | null, notice: string) => {
    query.setData(next);
    action.setNotice(notice);
  };

  return (
    <main id="main" class="webhook">
      <h2>Webhook</h2>
      <Outcome action={action} />
      {error ? (
        <Problem error={error} retry={load} />
      ) : webhook === undefined ? (
        <Loading />
      ) : session.team.plan !== 'pro' ? (
        <p class="warning">
          Webhooks are a Pro feature: this team is on the Free plan, so none is sent.
        </p>
      ) : webhook === null ? (
        <Connect
          formId={formId}
          onConnected={(made) =>
            changed(made, 'Connected. Copy the signing secret to check the signatures.')
          }
        />
      ) : (
        <Connected formId={formId} webhook={webhook} action={action} onChanged={changed} />
      )}
    </main>
  );
}
