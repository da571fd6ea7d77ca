import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useAction } from '../data.ts';
import type { Form } from '../model.ts';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';
import { Confirm } from './confirm.tsx';
import { Outcome } from './feedback.tsx';

/** A new key (the old endpoint stops at once) and deleting the form, typed name first. */
export function DangerZone(props: { form: Form; onRotated: (form: Form) => void }) {
  const { form } = props;
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const action = useAction();
  return (
    <section id="danger" class="settings-group danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title" tabIndex={-1}>
        Danger zone
      </h2>
      <p>
        A new key gives the form a new endpoint; the old one stops accepting posts at once, so every
        page that posts to it must change.
      </p>
      <button type="button" disabled={action.busy} onClick={() => setAsking(true)}>
        Give the form a new key
      </button>
      <Outcome action={action} />
      <form
        class="inline-form"
        aria-label="Delete this form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            await call('deleteForm', { params: { id: form.id } });
            navigate(paths.forms());
          });
        }}
      >
        <label>
          Type the form's name, {form.name}, to delete it with its submissions and files
          <input
            value={typed}
            autoComplete="off"
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="danger" disabled={typed !== form.name || action.busy}>
          Delete this form
        </button>
      </form>
      {asking && (
        <Confirm
          title="Give the form a new key?"
          confirm="New key"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            // A refusal (or the service unreachable) is shown in words, not left unhandled.
            void action.run(
              async () => {
                const rotated = await call('rotateFormKey', { params: { id: form.id } });
                props.onRotated(rotated);
                return rotated;
              },
              (rotated) =>
                `New endpoint: ${rotated.endpoint}. The old one no longer accepts posts.`,
            );
          }}
        >
          <p>The endpoint {form.endpoint} stops accepting posts at once.</p>
        </Confirm>
      )}
    </section>
  );
}
