import { groupParts } from '#domain/form-logic.ts';
import type { LogicFieldView } from '../logic-model.ts';
import { operatorWords } from '../logic-model.ts';
import type { Form } from '../model.ts';
import { TryField } from './logic-try-field.tsx';

type Rule = Form['notifyRules'][number];

/** The fields a routing rule reads, as the preview's controls show them. */
export function routingFields(form: Form): LogicFieldView[] {
  const named = new Set(
    (form.notifyRules ?? []).flatMap((rule) =>
      groupParts(rule.if).conditions.map((condition) => condition.field),
    ),
  );
  return (form.fields ?? [])
    .filter((field) => named.has(field.id))
    .map((field) => ({
      key: `route-${field.id}`,
      id: field.id,
      type: field.type,
      name: field.label || field.id,
      options: field.options ?? [],
    }));
}

/** A rule in words: “When Plan is “Team”: sales@example.com”. */
export function ruleWords(rule: Rule, fields: readonly LogicFieldView[]): string {
  const { every, conditions } = groupParts(rule.if);
  const said = conditions.map((condition) => {
    const field = fields.find((each) => each.id === condition.field);
    const test = operatorWords(condition.op, field?.type ?? '');
    const values = condition.value === undefined ? [] : [condition.value].flat();
    const value = values.length > 0 ? ` ${values.map((each) => `“${each}”`).join(' or ')}` : '';
    return `“${field?.name ?? condition.field}” ${test}${value}`;
  });
  return `When ${said.join(every ? ' and ' : ' or ')}: ${rule.to.join(', ')}`;
}

/**
 * Routing by answer on the Emails screen (docs/dashboard.md#logic): the
 * form's rules in words, and answers to try: the notification above is made
 * for them, and the line says where this answer would go, as the email
 * worker decides (notify-routing.ts, the form's one evaluator).
 */
export function EmailRouting(props: {
  form: Form;
  fields: readonly LogicFieldView[];
  answers: Readonly<Record<string, string>>;
  routed: readonly string[];
  to: string;
  cc: readonly string[];
  pro: boolean;
  onAnswer: (id: string, value: string) => void;
}) {
  const rules = props.form.notifyRules ?? [];
  const everyone = [props.to, ...props.cc].join(', ');
  return (
    <section class="email-routing" aria-labelledby="email-routing-title">
      <h3 id="email-routing-title">Routing by answer</h3>
      <ul>
        {rules.map((rule) => (
          <li key={JSON.stringify(rule)}>{ruleWords(rule, props.fields)}</li>
        ))}
      </ul>
      {props.pro ? (
        <>
          <p class="hint">Change these answers to see where each would go:</p>
          {props.fields.map((field) => (
            <TryField
              key={field.key}
              view={field}
              id={field.id}
              required={false}
              missing={false}
              value={props.answers[field.id] ?? ''}
              onChange={(value) => props.onAnswer(field.id, value)}
            />
          ))}
          <p role="status">
            {props.routed.length > 0
              ? `This answer would go to ${everyone}.`
              : `No rule holds: this answer would go to ${everyone}.`}
          </p>
        </>
      ) : (
        <p class="hint">
          Routing by answer needs the Pro plan: on this team the notification goes to the owner.
        </p>
      )}
    </section>
  );
}
