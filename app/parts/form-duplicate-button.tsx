import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { limitOrMessage } from '../form-limit-words.ts';
import type { FormSummary } from '../model.ts';

/** Duplicates a form (fields, settings, design); a Free team at its limit is told why not. */
export function DuplicateButton(props: { form: FormSummary; onDone: () => void }) {
  const [error, setError] = useState<string>();
  const duplicate = async () => {
    setError(undefined);
    try {
      await call('duplicateForm', { params: { id: props.form.id }, body: {} });
      props.onDone();
    } catch (failure) {
      setError(limitOrMessage(failure, undefined));
    }
  };
  return (
    <span class="duplicate">
      <button
        type="button"
        class="quiet"
        onClick={duplicate}
        aria-label={`Duplicate ${props.form.name}`}
      >
        Duplicate
      </button>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
