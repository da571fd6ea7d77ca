import { useEffect, useRef, useState } from 'preact/hooks';
import { keptAnswers, type LogicField, walk } from '#domain/form-logic.ts';
import { type Entry, fieldViews, formOfEntries, pagesIn } from '../fields-layout.ts';
import { pageName } from '../logic-model.ts';
import { TryField } from './logic-try-field.tsx';

/**
 * "Try the form" (docs/dashboard.md#logic): the fields as edited, walked by
 * the one evaluator the submit path uses (lambdas/domain/form-logic.ts), step
 * by step: what is shown for the answers typed here, where Next leads, and
 * what a send would keep. Nothing is sent.
 */
export function TryForm(props: { entries: readonly Entry[] }) {
  const [open, setOpen] = useState(false);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [step, setStep] = useState(0);
  const [sent, setSent] = useState(false);
  const [missing, setMissing] = useState<string[]>([]);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = false;
  });
  const layout = formOfEntries(props.entries);
  const form = { fields: layout.fields as unknown as LogicField[], pages: layout.pages };
  const byId = new Map([...fieldViews(props.entries).values()].map((view) => [view.id, view]));
  const result = walk(form, answers);
  const pages = pagesIn(props.entries);
  const stepped = result.pages.length > 0;
  const at = Math.min(step, Math.max(result.pages.length - 1, 0));
  const pageIndex = stepped ? pages.findIndex((page) => page.id === result.pages[at]) : -1;
  const onPage = stepped ? new Set(layout.pages?.[pageIndex]?.fields ?? []) : undefined;
  const shown = result.active.filter((id) => !onPage || onPage.has(id));
  const required = new Set(result.required);
  const last = !stepped || at === result.pages.length - 1;
  const go = (next: number, isSent = false) => {
    moved.current = true;
    setMissing([]);
    setStep(next);
    setSent(isSent);
  };
  const forward = () => {
    const empty = shown.filter((id) => required.has(id) && !(answers[id] ?? '').trim());
    if (empty.length > 0) {
      setMissing(empty);
      return;
    }
    go(last ? at : at + 1, last);
  };
  const name = (id: string) => byId.get(id)?.name ?? id;
  const title = stepped ? pages[pageIndex]?.title.trim() : '';
  const stepTitle = stepped
    ? `Step ${at + 1} of ${result.pages.length}${title ? `: ${title}` : ''}`
    : 'The form';
  return (
    <section class="try-form" aria-labelledby="try-form-heading">
      <h3 id="try-form-heading">Try the form</h3>
      <p class="hint">
        Answer as a visitor would: fields show and hide, and Next goes where the jumps lead, as on
        the hosted page. Nothing is sent or saved.
      </p>
      <button
        type="button"
        class="quiet"
        aria-expanded={open}
        aria-controls={open ? 'try-form-panel' : undefined}
        onClick={() => {
          setOpen(!open);
          setAnswers({});
          go(0);
          moved.current = !open;
        }}
      >
        {open ? 'Close the preview' : 'Try the form'}
      </button>
      {open && (
        <div id="try-form-panel" class="try-panel">
          <h4 ref={heading} tabIndex={-1}>
            {sent ? 'Sent (in this preview only)' : stepTitle}
          </h4>
          {sent ? (
            <Outcome
              endedOn={stepped ? pageName(pages[pageIndex]!, pageIndex + 1) : undefined}
              kept={Object.keys(keptAnswers(form, result, answers)).filter((id) =>
                (answers[id] ?? '').trim(),
              )}
              dropped={Object.keys(answers).filter(
                (id) => (answers[id] ?? '').trim() && !result.active.includes(id),
              )}
              name={name}
              answers={answers}
            />
          ) : (
            <>
              {shown.map((id) => (
                <TryField
                  key={id}
                  view={byId.get(id)}
                  id={id}
                  required={required.has(id)}
                  missing={missing.includes(id)}
                  value={answers[id] ?? ''}
                  onChange={(value) => setAnswers({ ...answers, [id]: value })}
                />
              ))}
              {shown.length === 0 && <p class="hint">No field is asked on this step.</p>}
            </>
          )}
          <div class="tools">
            {(at > 0 || sent) && (
              <button type="button" class="quiet" onClick={() => go(sent ? at : at - 1)}>
                Back
              </button>
            )}
            {!sent && (
              <button type="button" onClick={forward}>
                {last ? 'Send' : 'Next'}
              </button>
            )}
            {sent && (
              <button
                type="button"
                class="quiet"
                onClick={() => {
                  setAnswers({});
                  go(0);
                }}
              >
                Start again
              </button>
            )}
          </div>
          {missing.length > 0 && (
            <p class="field-problem" role="alert">
              To answer first: {missing.map(name).join(', ')}.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** Where the walk ended, and which answers a send keeps and drops. */
function Outcome(props: {
  endedOn?: string;
  kept: string[];
  dropped: string[];
  name: (id: string) => string;
  answers: Readonly<Record<string, string>>;
}) {
  return (
    <>
      {props.endedOn && <p>Sent from {props.endedOn}.</p>}
      <p>{props.kept.length === 0 ? 'No answer would be kept.' : 'Answers kept:'}</p>
      {props.kept.length > 0 && (
        <ul>
          {props.kept.map((id) => (
            <li key={id}>
              {props.name(id)}: {props.answers[id]}
            </li>
          ))}
        </ul>
      )}
      {props.dropped.length > 0 && (
        <p>
          Left out, as the service leaves them out (their fields were not asked):{' '}
          {props.dropped.map(props.name).join(', ')}.
        </p>
      )}
    </>
  );
}
