import type { Form, FormAnalytics } from '../model.ts';
import { number } from '../summary-model.ts';
import { CountTable } from './charts.tsx';
import { Facts } from './summary-facts.tsx';

/**
 * A choice's answers in words, rows that add up to the answers: each option
 * now (renamed options' answers in it), then answers under words no longer
 * among the options, by those words (docs/analytics.md#summary), then the
 * API's `(other)`: answers naming no option.
 */
export const choiceRows = (
  counts: Record<string, number>,
  former: Record<string, number> = {},
): [string, number][] => {
  const { '(other)': other, ...options } = counts;
  return [
    ...Object.entries(options),
    ...Object.entries(former).map(([words, count]): [string, number] => [
      `${words} (no longer an option)`,
      count,
    ]),
    ...(other ? [['Another answer', other] as [string, number]] : []),
  ];
};

/** Each field of the form, its answers counted as its kind allows. */
export function Fields(props: { form: Form; summary: FormAnalytics }) {
  const fields = props.form.fields ?? [];
  if (fields.length === 0) return null;
  return (
    <section class="fields">
      <h2>Answers by field</h2>
      <div class="breakdowns">
        {fields.map((field) => {
          const summary = props.summary.fields[field.id];
          if (!summary) return null;
          const name = field.label ?? field.id;
          const title = `${name} (${summary.answered.toLocaleString()} answered)`;
          switch (summary.kind) {
            case 'choice':
              return (
                <CountTable
                  key={field.id}
                  title={title}
                  what="Answer"
                  rows={choiceRows(summary.counts, summary.former)}
                />
              );
            case 'rating':
              return (
                <CountTable
                  key={field.id}
                  title={`${title}, average ${number(summary.average)}`}
                  // A 0–10 question is a score, not stars (docs/analytics.md#summary).
                  what={summary.min === 0 ? 'Score' : 'Stars'}
                  rows={Object.entries(summary.counts)}
                />
              );
            case 'checkbox':
              return (
                <Facts
                  key={field.id}
                  level={3}
                  title={title}
                  facts={[['Ticked', number(summary.checked)]]}
                />
              );
            case 'number':
              return (
                <Facts
                  key={field.id}
                  level={3}
                  title={title}
                  facts={[
                    ['Smallest', number(summary.min)],
                    ['Average', number(summary.average)],
                    ['Largest', number(summary.max)],
                  ]}
                />
              );
            default:
              return (
                <Facts
                  key={field.id}
                  level={3}
                  title={name}
                  facts={[['Answered', number(summary.answered)]]}
                />
              );
          }
        })}
      </div>
    </section>
  );
}
