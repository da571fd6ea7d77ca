import type { ComponentChildren } from 'preact';
import { END } from '#domain/form-logic.ts';
import {
  type LogicFieldView,
  newCondition,
  newLogicKey,
  type PageDraft,
  pageName,
  type RuleDraft,
} from '../logic-model.ts';
import { logicControl, rulePrefix } from '../logic-problems.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';
import { ConditionsEditor, focusSoon } from './logic-conditions.tsx';

/**
 * One page of a form with steps (docs/dashboard.md#logic): its title, its
 * fields (`children`), and its jumps, "Then go to…" a later page or the end
 * when their conditions hold; none holding, the next page.
 */
export function PageSection(props: {
  page: PageDraft;
  number: number;
  /** The pages after this one, where a jump may go. */
  later: readonly { key: string; name: string }[];
  /** The fields up to this page's last one: what its jumps may read. */
  candidates: readonly LogicFieldView[];
  views: ReadonlyMap<string, LogicFieldView>;
  problems: Readonly<Record<string, string>>;
  empty: boolean;
  /** Absent for the first page while others follow it. */
  onRemove?: () => void;
  onChange: (patch: Partial<PageDraft>) => void;
  children: ComponentChildren;
}) {
  const { page, problems } = props;
  const name = pageName(page, props.number);
  const titleId = `${page.key}-title`;
  const setRule = (index: number, rule: RuleDraft | null) =>
    props.onChange({
      next: rule
        ? page.next.map((each, at) => (at === index ? rule : each))
        : page.next.filter((_, at) => at !== index),
    });
  const thenId = `${page.key}-then`;
  return (
    <section class="page-section" aria-labelledby={`${page.key}-heading`}>
      <div class="page-head">
        <h3 id={`${page.key}-heading`}>{name}</h3>
        {props.onRemove && (
          <button
            type="button"
            class="quiet"
            aria-label={`Remove page break: ${name}`}
            onClick={props.onRemove}
          >
            {props.number === 1 ? 'Remove steps' : 'Remove page break'}
          </button>
        )}
      </div>
      <div class="setting">
        <label for={titleId}>Page title</label>
        <input
          id={titleId}
          value={page.title}
          aria-invalid={problems[titleId] ? 'true' : undefined}
          aria-describedby={describedBy(titleId, { problem: problems[titleId] })}
          onInput={(event) => props.onChange({ title: event.currentTarget.value })}
        />
        <FieldNotes id={titleId} problem={problems[titleId]} />
      </div>
      {props.empty && (
        <p class="hint">No fields on this page yet: add a field, or move one down to here.</p>
      )}
      {props.children}
      {page.next.map((rule, index) => {
        const prefix = rulePrefix(page.key, rule.key);
        const goToId = `${prefix}-goTo`;
        return (
          <fieldset class="logic-rule" key={rule.key}>
            <legend>Jump {index + 1}</legend>
            <ConditionsEditor
              prefix={prefix}
              legend="If"
              group={rule.when}
              candidates={props.candidates}
              views={props.views}
              problems={problems}
              onChange={(when) => setRule(index, { ...rule, when })}
            />
            <div class="setting">
              <label for={goToId}>Then go to</label>
              <select
                id={goToId}
                value={rule.goTo}
                aria-invalid={problems[goToId] ? 'true' : undefined}
                aria-describedby={describedBy(goToId, { problem: problems[goToId] })}
                onChange={(event) => setRule(index, { ...rule, goTo: event.currentTarget.value })}
              >
                {rule.goTo !== END && !props.later.some((each) => each.key === rule.goTo) && (
                  <option value={rule.goTo}>A page before this one</option>
                )}
                {props.later.map((each) => (
                  <option key={each.key} value={each.key}>
                    {each.name}
                  </option>
                ))}
                <option value={END}>The end: send the form</option>
              </select>
              <FieldNotes id={goToId} problem={problems[goToId]} />
            </div>
            <button
              type="button"
              class="quiet"
              aria-label={`Remove jump ${index + 1} of ${name}`}
              onClick={() => {
                setRule(index, null);
                focusSoon(thenId);
              }}
            >
              Remove jump
            </button>
          </fieldset>
        );
      })}
      {props.later.length > 0 && (
        <div class="setting page-then">
          <button
            type="button"
            class="quiet"
            id={thenId}
            disabled={props.candidates.length === 0}
            aria-label={`Then go to…: a jump from ${name}`}
            onClick={() => {
              const rule: RuleDraft = {
                key: newLogicKey('rule'),
                when: { every: true, conditions: [newCondition(props.candidates.at(-1)!)] },
                goTo: props.later[1]?.key ?? END,
              };
              props.onChange({ next: [...page.next, rule] });
              focusSoon(
                logicControl(rulePrefix(page.key, rule.key), rule.when.conditions[0]!.key, 'field'),
              );
            }}
          >
            Then go to…
          </button>
          <p class="hint">
            {page.next.length > 0 ? 'When no jump holds: ' : 'After this page: '}
            {props.later[0]?.name ?? 'the end'}.
          </p>
        </div>
      )}
    </section>
  );
}
