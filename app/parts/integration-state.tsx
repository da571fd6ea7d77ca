import { integrationStateWords } from '../integrations-model.ts';

/** An integration's state as a badge, and when failing the receiver's last refusal. */
export function IntegrationState(props: {
  integration: { status: Parameters<typeof integrationStateWords>[0]; lastError?: string | null };
}) {
  const { status, lastError } = props.integration;
  const failing = status === 'failing';
  return (
    <p>
      <span class={`badge ${failing ? 'paused' : 'active'}`}>{integrationStateWords(status)}</span>{' '}
      {failing && lastError && <span>Last error: {lastError}</span>}
    </p>
  );
}
