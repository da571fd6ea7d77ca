import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { limitOrMessage } from '../form-limit-words.ts';
import { FORM_TYPE_WORDS, FORM_TYPES } from '../form-types.ts';
import type { Form, TeamView } from '../model.ts';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';

/** A new form by name and type (each type described); it opens on its share panel. */
export function NewForm(props: { team: TeamView | undefined }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<Form['type']>('contact');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const form = await call('createForm', { body: { name, type } });
      navigate(paths.formTab(form.id, 'share'));
    } catch (failure) {
      setError(limitOrMessage(failure, props.team));
      setBusy(false);
    }
  };
  return (
    <form class="new-form" onSubmit={create}>
      <h2>New form</h2>
      <label for="new-form-name">Name</label>
      <input
        id="new-form-name"
        required
        maxLength={200}
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <label for="new-form-type">Type</label>
      <select
        id="new-form-type"
        value={type}
        aria-describedby="new-form-type-help"
        onChange={(e) => setType(e.currentTarget.value as Form['type'])}
      >
        {FORM_TYPES.map((each) => (
          <option key={each} value={each}>
            {FORM_TYPE_WORDS[each].label}
          </option>
        ))}
      </select>
      <p id="new-form-type-help" class="hint">
        {FORM_TYPE_WORDS[type].description}
      </p>
      <button type="submit" disabled={busy}>
        Create form
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
