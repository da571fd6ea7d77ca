import { type ConditionOperator, operatorsFor } from '#domain/form-logic.ts';
import {
  type ConditionDraft,
  firstValue,
  type GroupDraft,
  type LogicFieldView,
  newCondition,
  operatorWords,
  takesList,
  takesNoValue,
} from '../logic-model.ts';
import { logicControl } from '../logic-problems.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';

/** Puts the keyboard on a control once the render that draws it is done (a rule added or taken out). */
export const focusSoon = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

/**
 * The conditions of one rule, built from menus (docs/dashboard.md#logic):
 * for each, a field among the earlier ones, a test its type takes, and a
 * value (chosen among its options when it has them); whether all or one
 * must hold. `prefix` names the controls, so a refused save points at one.
 */
export function ConditionsEditor(props: {
  prefix: string;
  legend: string;
  group: GroupDraft;
  /** The fields a condition may read: those before the rule. */
  candidates: readonly LogicFieldView[];
  /** Every field, for a condition naming one no longer before the rule. */
  views: ReadonlyMap<string, LogicFieldView>;
  problems: Readonly<Record<string, string>>;
  onChange: (group: GroupDraft) => void;
  children?: preact.ComponentChildren;
}) {
  const { prefix, group, candidates, problems } = props;
  const set = (index: number, condition: ConditionDraft) =>
    props.onChange({
      ...group,
      conditions: group.conditions.map((each, at) => (at === index ? condition : each)),
    });
  const addId = `${prefix}-add`;
  const everyId = `${prefix}-every`;
  return (
    <fieldset class="logic-group">
      <legend>{props.legend}</legend>
      {group.conditions.length > 1 && (
        <div class="setting">
          <label for={everyId}>Which must hold</label>
          <select
            id={everyId}
            value={group.every ? 'all' : 'any'}
            onChange={(event) =>
              props.onChange({ ...group, every: event.currentTarget.value === 'all' })
            }
          >
            <option value="all">All of these</option>
            <option value="any">Any one of these</option>
          </select>
        </div>
      )}
      <ol class="conditions">
        {group.conditions.map((condition, index) => (
          <li key={condition.key}>
            <ConditionRow
              prefix={prefix}
              number={index + 1}
              condition={condition}
              candidates={candidates}
              views={props.views}
              problems={problems}
              onChange={(next) => set(index, next)}
              onRemove={() => {
                props.onChange({
                  ...group,
                  conditions: group.conditions.filter((_, at) => at !== index),
                });
                focusSoon(addId);
              }}
            />
          </li>
        ))}
      </ol>
      <div class="tools">
        <button
          type="button"
          class="quiet"
          id={addId}
          aria-describedby={describedBy(addId, { problem: problems[addId] })}
          disabled={candidates.length === 0}
          onClick={() => {
            const added = newCondition(candidates.at(-1)!);
            props.onChange({ ...group, conditions: [...group.conditions, added] });
            focusSoon(logicControl(prefix, added.key, 'field'));
          }}
        >
          Add a condition
        </button>
        {props.children}
      </div>
      <FieldNotes id={addId} problem={problems[addId]} />
    </fieldset>
  );
}

/** One condition: field, test, value, each a menu where it can be. */
function ConditionRow(props: {
  prefix: string;
  number: number;
  condition: ConditionDraft;
  candidates: readonly LogicFieldView[];
  views: ReadonlyMap<string, LogicFieldView>;
  problems: Readonly<Record<string, string>>;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const { prefix, condition, candidates, problems } = props;
  const field = props.views.get(condition.field);
  const id = (part: string) => logicControl(prefix, condition.key, part);
  const listed = candidates.some((each) => each.key === condition.field);
  const operators = operatorsFor(field?.type ?? '');
  const ops = operators.includes(condition.op) ? operators : [condition.op, ...operators];
  const note = (part: string) => ({
    'aria-invalid': problems[id(part)] ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id(part), { problem: problems[id(part)] }),
  });
  return (
    <fieldset class="condition">
      <legend>Condition {props.number}</legend>
      <div class="setting">
        <label for={id('field')}>Field</label>
        <select
          id={id('field')}
          value={condition.field}
          {...note('field')}
          onChange={(event) => {
            const next = props.views.get(event.currentTarget.value);
            const keeps = next && operatorsFor(next.type).includes(condition.op);
            const op = keeps
              ? condition.op
              : (operatorsFor(next?.type ?? '')[0] as ConditionOperator);
            props.onChange({
              ...condition,
              field: event.currentTarget.value,
              op,
              value: keeps && !next?.options.length ? condition.value : firstValue(op, next),
            });
          }}
        >
          {!listed && (
            <option value={condition.field}>
              {field ? `${field.name} (not before this rule)` : 'A field taken out'}
            </option>
          )}
          {candidates.map((each) => (
            <option key={each.key} value={each.key}>
              {each.name}
            </option>
          ))}
        </select>
        <FieldNotes id={id('field')} problem={problems[id('field')]} />
      </div>
      <div class="setting">
        <label for={id('op')}>Test</label>
        <select
          id={id('op')}
          value={condition.op}
          {...note('op')}
          onChange={(event) => {
            const op = event.currentTarget.value as ConditionOperator;
            const sameKind =
              takesList(op) === takesList(condition.op) &&
              takesNoValue(op) === takesNoValue(condition.op);
            props.onChange({
              ...condition,
              op,
              value: sameKind ? condition.value : firstValue(op, field),
            });
          }}
        >
          {ops.map((op) => (
            <option key={op} value={op}>
              {operatorWords(op, field?.type ?? '')}
            </option>
          ))}
        </select>
        <FieldNotes id={id('op')} problem={problems[id('op')]} />
      </div>
      {!takesNoValue(condition.op) && (
        <ConditionValue
          id={id('value')}
          condition={condition}
          field={field}
          problem={problems[id('value')]}
          onChange={(value) => props.onChange({ ...condition, value })}
        />
      )}
      <button
        type="button"
        class="quiet"
        aria-label={`Remove condition ${props.number}`}
        onClick={props.onRemove}
      >
        Remove
      </button>
    </fieldset>
  );
}

/** The value of a condition: an option, the options ticked, a number, a date, or words. */
function ConditionValue(props: {
  id: string;
  condition: ConditionDraft;
  field: LogicFieldView | undefined;
  problem?: string;
  onChange: (value: string[]) => void;
}) {
  const { id, condition, field, problem } = props;
  const options = field?.options ?? [];
  const invalid = problem ? ('true' as const) : undefined;
  const described = describedBy(id, { problem });
  if (takesList(condition.op) && options.length > 0) {
    const chosen = new Set(condition.value);
    return (
      <fieldset class="setting values">
        <legend>Values</legend>
        {options.map((option, index) => (
          <div class="check" key={option}>
            <input
              type="checkbox"
              id={index === 0 ? id : `${id}-${index}`}
              checked={chosen.has(option)}
              aria-invalid={invalid}
              aria-describedby={described}
              onChange={(event) =>
                props.onChange(
                  event.currentTarget.checked
                    ? options.filter((each) => chosen.has(each) || each === option)
                    : condition.value.filter((each) => each !== option),
                )
              }
            />
            <label for={index === 0 ? id : `${id}-${index}`}>{option}</label>
          </div>
        ))}
        <FieldNotes id={id} problem={problem} />
      </fieldset>
    );
  }
  if (takesList(condition.op)) {
    return (
      <div class="setting">
        <label for={id}>Values, one a line</label>
        <textarea
          id={id}
          rows={3}
          value={condition.value.join('\n')}
          aria-invalid={invalid}
          aria-describedby={described}
          onInput={(event) => props.onChange(event.currentTarget.value.split('\n'))}
        />
        <FieldNotes id={id} problem={problem} />
      </div>
    );
  }
  const value = condition.value[0] ?? '';
  return (
    <div class="setting">
      <label for={id}>Value</label>
      {options.length > 0 ? (
        <select
          id={id}
          value={value}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(event) => props.onChange([event.currentTarget.value])}
        >
          {!options.includes(value) && <option value={value}>{value || '(choose)'}</option>}
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={
            (field?.type === 'date'
              ? 'date'
              : field?.type === 'number' || field?.type === 'rating'
                ? 'number'
                : 'text') as 'text'
          }
          value={value}
          aria-invalid={invalid}
          aria-describedby={described}
          onInput={(event) => props.onChange([event.currentTarget.value])}
        />
      )}
      <FieldNotes id={id} problem={problem} />
    </div>
  );
}
