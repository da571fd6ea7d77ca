import type { FieldDraft } from '../fields-model.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';

/** A text, number or multi-line property of one field, with its hint and problem. */
export function FieldInput(props: {
  draft: FieldDraft;
  property: keyof FieldDraft;
  label: string;
  problem?: string;
  type?: 'text' | 'number';
  multiline?: boolean;
  hint?: string;
  onChange: (patch: Partial<FieldDraft>) => void;
}) {
  const { draft, property, problem, hint } = props;
  const id = `${draft.key}-${property}`;
  const common = {
    id,
    value: draft[property] as string,
    'aria-invalid': problem ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id, { hint, problem }),
    onInput: (event: { currentTarget: { value: string } }) =>
      props.onChange({
        [property]: event.currentTarget.value,
        // The id follows the label until it is typed itself.
        ...(property === 'id' ? { idEdited: true } : {}),
      }),
  };
  return (
    <div class="setting">
      <label for={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={4} />
      ) : (
        // Preact types each input type apart; both kinds take the same attributes here.
        <input {...common} type={(props.type ?? 'text') as 'text'} />
      )}
      <FieldNotes id={id} hint={hint} problem={problem} />
    </div>
  );
}
