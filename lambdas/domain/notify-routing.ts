import { answersWithFiles, groupHolds } from './form-logic.ts';
import type { FormRecord } from './form-model.ts';
import type { Submission } from './submission-model.ts';

/**
 * Routing by answer (docs/forms.md#routing-by-answer): the addresses of every
 * `notifyRules` rule that holds on a submission's stored answers, each once
 * (in any case), in the rules' order. Read with the form's one evaluator, so
 * the dashboard's preview ("this answer would go to …") says what the email
 * worker does. The stored answers are already those the walk kept, so a
 * rule never fires on an answer to a question that was not asked.
 */
export function routedRecipients(
  form: Pick<FormRecord, 'fields' | 'notifyRules'>,
  submission: Pick<Submission, 'data'> & { meta: Pick<Submission['meta'], 'files'> },
): string[] {
  const rules = form.notifyRules ?? [];
  if (rules.length === 0) return [];
  const types = new Map((form.fields ?? []).map((field) => [field.id, field.type]));
  const answers = answersWithFiles(
    submission.data,
    (submission.meta.files ?? []).map((file) => ({ field: file.field })),
  );
  const answerOf = (id: string) => (Object.hasOwn(answers, id) ? answers[id] : undefined);
  const typeOf = (id: string) => types.get(id);
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const rule of rules) {
    if (!groupHolds(rule.if, answerOf, typeOf)) continue;
    for (const address of rule.to) {
      const folded = address.toLowerCase();
      if (seen.has(folded)) continue;
      seen.add(folded);
      addresses.push(address);
    }
  }
  return addresses;
}
