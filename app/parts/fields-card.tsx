import { type FieldDraft, fieldName, summaryLine } from '../fields-model.ts';
import { FieldEditor } from './fields-editor.tsx';
import type { LogicContext } from './fields-logic.tsx';

/**
 * One field of the builder: a line that says what it is (label, type in
 * words, required) and opens it, its move and remove buttons, and, opened,
 * its properties.
 */
export function FieldCard(props: {
  draft: FieldDraft;
  number: number;
  open: boolean;
  problems: Readonly<Record<string, string>>;
  /** What a file field says while the form does not accept files. */
  filesNote?: string;
  logic: LogicContext;
  onToggle: () => void;
  onChange: (patch: Partial<FieldDraft>) => void;
  onUp?: () => void;
  onDown?: () => void;
  onRemove: () => void;
}) {
  const { draft, open } = props;
  const name = fieldName(draft, props.number);
  const title = `Field ${props.number}: ${name}`;
  const troubled = Object.keys(props.problems).length > 0;
  return (
    <li class={`field-card${troubled ? ' troubled' : ''}`}>
      <div class="field-head">
        <button
          type="button"
          class="field-toggle"
          id={`${draft.key}-toggle`}
          aria-expanded={open}
          aria-controls={open ? `${draft.key}-editor` : undefined}
          onClick={props.onToggle}
        >
          {/* Drawn, not named: the button's name is the field's line, its state aria-expanded. */}
          <span class="mark" aria-hidden="true">
            {open ? '▾ ' : '▸ '}
          </span>
          <span class="field-title">{title}</span>{' '}
          <span class="field-facts">
            {summaryLine(draft)}
            {troubled && !open && ', to correct'}
          </span>
        </button>
        <div class="tools">
          <button
            type="button"
            class="quiet"
            id={`${draft.key}-up`}
            disabled={!props.onUp}
            aria-label={`Move up: ${name}`}
            onClick={props.onUp}
          >
            Move up
          </button>
          <button
            type="button"
            class="quiet"
            id={`${draft.key}-down`}
            disabled={!props.onDown}
            aria-label={`Move down: ${name}`}
            onClick={props.onDown}
          >
            Move down
          </button>
          <button
            type="button"
            class="danger"
            aria-label={`Remove: ${name}`}
            onClick={props.onRemove}
          >
            Remove
          </button>
        </div>
      </div>
      {open && (
        <fieldset id={`${draft.key}-editor`} class="field-editor">
          <legend class="visually-hidden">{title}</legend>
          <FieldEditor
            draft={draft}
            problems={props.problems}
            filesNote={props.filesNote}
            logic={props.logic}
            onChange={props.onChange}
          />
        </fieldset>
      )}
    </li>
  );
}
