import type { LogicFieldView } from '../logic-model.ts';

/** One field of the preview, drawn simply by its type. */
export function TryField(props: {
  view: LogicFieldView | undefined;
  id: string;
  required: boolean;
  missing: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  const { view, value } = props;
  const control = `try-${view?.key ?? props.id}`;
  const type = view?.type ?? 'text';
  const label = `${view?.name ?? props.id}${type === 'hidden' ? ' (hidden: from the page address)' : ''}${props.required ? ' (required)' : ''}`;
  const invalid = props.missing ? ('true' as const) : undefined;
  const set = (event: { currentTarget: { value: string } }) =>
    props.onChange(event.currentTarget.value);
  if (type === 'checkbox' || type === 'file') {
    return (
      <div class="setting check">
        <input
          id={control}
          type="checkbox"
          checked={value !== ''}
          aria-invalid={invalid}
          onChange={(event) =>
            props.onChange(event.currentTarget.checked ? (type === 'file' ? 'file' : 'on') : '')
          }
        />
        <label for={control}>{type === 'file' ? `${label}: a file attached` : label}</label>
      </div>
    );
  }
  return (
    <div class="setting">
      <label for={control}>{label}</label>
      {view && view.options.length > 0 ? (
        <select id={control} value={value} aria-invalid={invalid} onChange={set}>
          <option value="" />
          {view.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : type === 'textarea' ? (
        <textarea id={control} rows={2} value={value} aria-invalid={invalid} onInput={set} />
      ) : (
        <input
          id={control}
          type={
            (type === 'number' || type === 'rating'
              ? 'number'
              : type === 'date'
                ? 'date'
                : 'text') as 'text'
          }
          value={value}
          aria-invalid={invalid}
          onInput={set}
        />
      )}
    </div>
  );
}
