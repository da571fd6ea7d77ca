import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { failureWords, useAction, useQuery } from '../data.ts';
import type { ApiKey } from '../model.ts';
import { When } from '../time.tsx';
import { Confirm } from './confirm.tsx';
import { CopyField } from './copy-field.tsx';
import { Loading, Outcome } from './feedback.tsx';
import { Alert, Breakable, Listing } from './listing.tsx';
import { TeamSection } from './team-section.tsx';

/** The team's API keys, for owners: a new key is shown once; revoking works at once. */
export function TeamApiKeys() {
  const action = useAction();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; apiKey: string }>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const listed = useQuery('keys', (signal) => call('listApiKeys', { signal }));
  const keys = listed.data?.apiKeys;
  return (
    <TeamSection id="keys-title" title="API keys">
      <Outcome action={action} />
      <Alert text={listed.error ? failureWords(listed.error) : ''} />
      {created && (
        <div class="created-key">
          <CopyField label={`New key ${created.name}`} value={created.apiKey} />
          <p class="warning">Copy it now: it is shown this once, only its hash is kept.</p>
        </div>
      )}
      {!keys ? (
        <Loading label="Loading keys…" />
      ) : (
        <Listing columns={['Name', 'Created', 'Last used', { hidden: 'Actions' }]}>
          {keys.map((key) => (
            <tr key={key.keyId}>
              <th scope="row">{key.name}</th>
              <td>
                <When at={key.createdAt} />
                {key.createdByEmail && (
                  <>
                    {' by '}
                    <Breakable text={key.createdByEmail} />
                  </>
                )}
              </td>
              <td>{key.lastUsedOn ?? 'Never'}</td>
              <td>
                {key.revokedAt ? (
                  'Revoked'
                ) : (
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Revoke ${key.name}`}
                    onClick={() => setRevoking(key)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Listing>
      )}
      <form
        class="inline-form"
        aria-label="Create an API key"
        onSubmit={async (event) => {
          event.preventDefault();
          const made = await action.run(
            () => call('createApiKey', { body: { name: name.trim() || 'default' } }),
            (key) => `Key ${key.name} created.`,
          );
          if (!made) return;
          setCreated({ name: made.name, apiKey: made.apiKey });
          setName('');
          await listed.reload();
        }}
      >
        <label>
          Name of the new key
          <input
            maxLength={100}
            value={name}
            placeholder="e.g. CRM sync"
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Create a key
        </button>
      </form>
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.name}?`}
          confirm="Revoke"
          onCancel={() => setRevoking(undefined)}
          onConfirm={async () => {
            const key = revoking;
            setRevoking(undefined);
            const done = await action.run(
              () => call('revokeApiKey', { params: { keyId: key.keyId } }),
              `Key ${key.name} revoked: it stops working at once.`,
            );
            if (done) await listed.reload();
          }}
        >
          <p>Scripts using it are refused from now on.</p>
        </Confirm>
      )}
    </TeamSection>
  );
}
