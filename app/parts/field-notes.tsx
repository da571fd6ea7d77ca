/**
 * What a control says below itself: a hint and the refusal of its value,
 * each a paragraph the control names in aria-describedby (`describedBy`).
 */
export function describedBy(id: string, notes: { hint?: string; problem?: string }) {
  return (
    [notes.hint && `${id}-hint`, notes.problem && `${id}-problem`].filter(Boolean).join(' ') ||
    undefined
  );
}

export function FieldNotes(props: { id: string; hint?: string; problem?: string }) {
  return (
    <>
      {props.hint && (
        <p id={`${props.id}-hint`} class="hint">
          {props.hint}
        </p>
      )}
      {props.problem && (
        <p id={`${props.id}-problem`} class="field-problem">
          {props.problem}
        </p>
      )}
    </>
  );
}
