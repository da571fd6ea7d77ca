import type { FieldDraft } from '../fields-model.ts';
import { type GroupDraft, type LogicFieldView, newCondition } from '../logic-model.ts';
import { groupPrefix, logicControl } from '../logic-problems.ts';
import { FieldNotes } from './field-notes.tsx';
import { ConditionsEditor, focusSoon } from './logic-conditions.tsx';

/** What a field's rules may read: the fields before it, and every field by key. */
export interface LogicContext {
  candidates: readonly LogicFieldView[];
  views: ReadonlyMap<string, LogicFieldView>;
}

const RULES = [
  ['showIf', 'Show only if…'],
  ['requiredIf', 'Required if…'],
] as const;

/**
 * A field's rules (docs/dashboard.md#logic): "Show only if…" and "Required
 * if…", each a button until it has conditions, then its conditions.
 */
export function FieldLogic(props: {
  draft: FieldDraft;
  logic: LogicContext;
  problems: Readonly<Record<string, string>>;
  onChange: (patch: Partial<FieldDraft>) => void;
}) {
  const { draft, logic, problems } = props;
  const none = logic.candidates.length === 0;
  const hintId = `${draft.key}-logic-hint`;
  return (
    <div class="field-logic">
      {RULES.map(([which, legend]) => {
        const group: GroupDraft | null = draft[which];
        const prefix = groupPrefix(draft.key, which);
        if (!group) {
          return (
            <div class="setting" key={which}>
              <button
                type="button"
                class="quiet"
                id={`${prefix}-add`}
                disabled={none}
                aria-describedby={none ? hintId : undefined}
                onClick={() => {
                  const added = newCondition(logic.candidates.at(-1)!);
                  props.onChange({ [which]: { every: true, conditions: [added] } });
                  focusSoon(logicControl(prefix, added.key, 'field'));
                }}
              >
                {legend}
              </button>
              <FieldNotes id={`${prefix}-add`} problem={problems[`${prefix}-add`]} />
            </div>
          );
        }
        return (
          <ConditionsEditor
            key={which}
            prefix={prefix}
            legend={legend.slice(0, -1)}
            group={group}
            candidates={logic.candidates}
            views={logic.views}
            problems={problems}
            onChange={(next) => {
              props.onChange({ [which]: next.conditions.length > 0 ? next : null });
              if (next.conditions.length === 0) focusSoon(`${prefix}-add`);
            }}
          >
            <button
              type="button"
              class="quiet"
              onClick={() => {
                props.onChange({ [which]: null });
                focusSoon(`${prefix}-add`);
              }}
            >
              {which === 'showIf' ? 'Always show' : 'Stop requiring on answers'}
            </button>
          </ConditionsEditor>
        );
      })}
      {none && (
        <p id={hintId} class="hint">
          A rule reads the answers of fields before this one: the first field has none.
        </p>
      )}
    </div>
  );
}
