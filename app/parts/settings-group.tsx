import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { failureWords } from '../data.ts';
import type { Form } from '../model.ts';
import { useSession } from '../session.ts';
import {
  changesOf,
  controlId,
  type Draft,
  draftOf,
  emptyAnswerProblems,
  type Group,
  isChanged,
  isPro,
  type Problem,
  problemsFromApi,
} from '../settings-model.ts';
import { Control } from './settings-control.tsx';
import { ErrorSummary } from './settings-error-summary.tsx';
import { SaveBar } from './settings-save-bar.tsx';

/** The auto-reply's texts: answers fill their `{{field.…}}` only with the switch on. */
const REPLY_TEXTS: readonly string[] = ['autoreplySubject', 'autoreplyBody'];

/**
 * One section of the settings, saved on its own: checked in the page with
 * the route's schema first, its refusals (the page's or the route's) in an
 * error summary at its top and at each control.
 */
export function GroupForm(props: {
  form: Form;
  group: Group;
  onSaved: (form: Form) => void;
  onDirty: (dirty: boolean) => void;
}) {
  const { form, group } = props;
  const free = useSession().team.plan !== 'pro';
  const saved = draftOf(form, group);
  const [draft, setDraft] = useState<Draft>(saved);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [attempt, setAttempt] = useState(0);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  // A save of another group changes `form` too: only this group's own saved values reset it.
  const savedKey = JSON.stringify(saved);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the saved values, not the object
  useEffect(() => setDraft(saved), [savedKey]);
  const changed = isChanged(group, saved, draft);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the parent's callback is new each render; only a change of `changed` is news
  useEffect(() => props.onDirty(changed), [changed]);

  const refuse = (found: Problem[]) => {
    setProblems(found);
    setAttempt((n) => n + 1);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const { body, problems: checked } = changesOf(group, saved, draft);
    const found = [...checked, ...emptyAnswerProblems(group, draft)];
    setMessage('');
    if (found.length > 0) return refuse(found);
    setProblems([]);
    if (Object.keys(body).length === 0) return;
    setBusy(true);
    try {
      const updated = await call('updateForm', { params: { id: form.id }, body });
      props.onSaved(updated);
      setMessage('Saved.');
    } catch (failure) {
      if (failure instanceof ApiError && failure.issues.length > 0)
        refuse(problemsFromApi(group, draft, failure.issues));
      else setMessage(failureWords(failure));
    } finally {
      setBusy(false);
    }
  };

  const titleId = `${group.id}-title`;
  return (
    <form id={group.id} class="settings-group" aria-labelledby={titleId} onSubmit={save} noValidate>
      <h2 id={titleId} tabIndex={-1}>
        {group.title}
      </h2>
      <ErrorSummary id={group.id} items={problems} attempt={attempt} />
      {group.id === 'settings-auto-reply' && <ReplySender name={form.notifyFromName} />}
      {group.settings.map((setting) => (
        <Control
          key={setting.key}
          setting={setting}
          value={draft[setting.key]!}
          problems={problems.filter((problem) => problem.key === setting.key)}
          locked={free && isPro(setting.key)}
          form={form}
          answers={
            REPLY_TEXTS.includes(setting.key)
              ? {
                  on: draft.autoreplyAnswerPlaceholders === true,
                  // The switch is Pro: a Free team is not offered to turn it on.
                  turnOn:
                    free && isPro('autoreplyAnswerPlaceholders')
                      ? undefined
                      : () => {
                          setDraft((now) => ({ ...now, autoreplyAnswerPlaceholders: true }));
                          // The switch, now ticked, takes the focus: what changed is where the person is.
                          requestAnimationFrame(() =>
                            document
                              .getElementById(controlId('autoreplyAnswerPlaceholders'))
                              ?.focus(),
                          );
                        },
                }
              : undefined
          }
          onChange={(value) => setDraft((now) => ({ ...now, [setting.key]: value }))}
        />
      ))}
      <SaveBar
        label={`Save ${group.title.toLowerCase()}`}
        unsaved={changed}
        busy={busy}
        message={message}
      />
    </form>
  );
}

/**
 * Who the auto-reply comes from, beside it: the form's sender name, which
 * the notification shares (it is edited under Notifications; one control,
 * so the two sections never hold two drafts of it).
 */
function ReplySender(props: { name: string }) {
  return (
    <p class="hint reply-sender">
      Sent from “{props.name}”, the sender name of this form’s emails.{' '}
      <button
        type="button"
        class="quiet"
        onClick={() => {
          const control = document.getElementById(controlId('notifyFromName'));
          control?.scrollIntoView({ block: 'center' });
          control?.focus();
        }}
      >
        Change the sender name
      </button>{' '}
      under Notifications.
    </p>
  );
}
