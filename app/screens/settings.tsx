import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { useAction } from '../data.ts';
import type { Form } from '../model.ts';
import { Confirm } from '../parts/confirm.tsx';
import { Outcome } from '../parts/feedback.tsx';
import { describedBy, FieldNotes } from '../parts/field-notes.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { PlaceholderButtons } from '../parts/placeholder-buttons.tsx';
import { paths } from '../paths.ts';
import { askBeforeLeaving, navigate } from '../router.ts';
import { useSession } from '../session.ts';
import { changesOf, type Draft, draftOf, GROUPS, isPro, type Setting } from '../settings-model.ts';

/** Every setting of the form, grouped; each group saved on its own. */
export function SettingsScreen(props: { formId: string }) {
  const loaded = useForm(props.formId);
  const [dirty, setDirty] = useState<Set<string>>(new Set());
  // Unsaved changes: the browser asks before the page is left or reloaded, and the app
  // before one of its links leads elsewhere.
  // Keyed by the names, not the count: one group saved as another is changed keeps the
  // count, and the question must name the group that is unsaved now.
  const unsaved = [...dirty].join(', ').toLowerCase();
  useEffect(() => {
    if (unsaved === '') return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    askBeforeLeaving(() => window.confirm(`Leave without saving ${unsaved}?`));
    return () => {
      window.removeEventListener('beforeunload', ask);
      askBeforeLeaving(undefined);
    };
  }, [unsaved]);
  return (
    <FormScreen loaded={loaded} class="settings" title={(form) => `Settings of ${form.name}`}>
      {(form) => (
        <>
          {GROUPS.map((group) => (
            <GroupForm
              key={group.title}
              form={form}
              group={group}
              onSaved={loaded.setForm}
              onDirty={(isDirty) =>
                setDirty((now) => {
                  const next = new Set(now);
                  if (isDirty) next.add(group.title);
                  else next.delete(group.title);
                  return next;
                })
              }
            />
          ))}
          <DangerZone form={form} onRotated={loaded.setForm} />
        </>
      )}
    </FormScreen>
  );
}

const idOf = (key: string) => `setting-${key}`;

/** A new key (the old endpoint stops at once) and deleting the form, typed name first. */
function DangerZone(props: { form: Form; onRotated: (form: Form) => void }) {
  const { form } = props;
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const action = useAction();
  return (
    <section class="settings-group danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title">Danger zone</h2>
      <p>
        A new key gives the form a new endpoint; the old one stops accepting posts at once, so every
        page that posts to it must change.
      </p>
      <button type="button" disabled={action.busy} onClick={() => setAsking(true)}>
        Give the form a new key
      </button>
      <Outcome action={action} />
      <form
        class="inline-form"
        aria-label="Delete this form"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            await call('deleteForm', { params: { id: form.id } });
            navigate(paths.forms());
          });
        }}
      >
        <label>
          Type the form's name, {form.name}, to delete it with its submissions and files
          <input
            value={typed}
            autoComplete="off"
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="danger" disabled={typed !== form.name || action.busy}>
          Delete this form
        </button>
      </form>
      {asking && (
        <Confirm
          title="Give the form a new key?"
          confirm="New key"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            // A refusal (or the service unreachable) is shown in words, not left unhandled.
            void action.run(
              async () => {
                const rotated = await call('rotateFormKey', { params: { id: form.id } });
                props.onRotated(rotated);
                return rotated;
              },
              (rotated) =>
                `New endpoint: ${rotated.endpoint}. The old one no longer accepts posts.`,
            );
          }}
        >
          <p>The endpoint {form.endpoint} stops accepting posts at once.</p>
        </Confirm>
      )}
    </section>
  );
}

const INPUT_TYPES: Partial<
  Record<Setting['kind'], 'text' | 'email' | 'url' | 'number' | 'datetime-local' | 'password'>
> = {
  text: 'text',
  email: 'email',
  url: 'url',
  number: 'number',
  datetime: 'datetime-local',
  secret: 'password',
};

function GroupForm(props: {
  form: Form;
  group: (typeof GROUPS)[number];
  onSaved: (form: Form) => void;
  onDirty: (dirty: boolean) => void;
}) {
  const { form, group } = props;
  const free = useSession().team.plan !== 'pro';
  const saved = draftOf(form, group);
  const [draft, setDraft] = useState<Draft>(saved);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  // A save of another group changes `form` too: only this group's own saved values reset it.
  const savedKey = JSON.stringify(saved);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the saved values, not the object
  useEffect(() => setDraft(saved), [savedKey]);
  const changed = Object.keys(changesOf(group, saved, draft).body).length > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the parent's callback is new each render; only a change of `changed` is news
  useEffect(() => props.onDirty(changed), [changed]);
  const titleId = `group-${group.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;

  const save = async (event: Event) => {
    event.preventDefault();
    const { body, problems: found } = changesOf(group, saved, draft);
    setProblems(found);
    setMessage('');
    if (Object.keys(found).length > 0) {
      setMessage('Correct the settings marked below.');
      return;
    }
    if (Object.keys(body).length === 0) return;
    setBusy(true);
    try {
      const updated = await call('updateForm', { params: { id: form.id }, body });
      props.onSaved(updated);
      setMessage('Saved.');
    } catch (failure) {
      if (failure instanceof ApiError && failure.issues.length > 0) {
        const mapped: Record<string, string> = {};
        for (const issue of failure.issues) mapped[issue.path.split('.')[0]!] ??= issue.message;
        setProblems(mapped);
      }
      setMessage(failure instanceof ApiError ? failure.message : 'Not saved: try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="settings-group" aria-labelledby={titleId} onSubmit={save} noValidate>
      <h2 id={titleId}>
        {group.title}
        {changed && <span class="unsaved"> (not saved)</span>}
      </h2>
      {group.settings.map((setting) => (
        <Control
          key={setting.key}
          setting={setting}
          value={draft[setting.key]!}
          problem={problems[setting.key]}
          locked={free && isPro(setting.key)}
          form={form}
          answersEmpty={
            setting.key.startsWith('autoreply') && draft.autoreplyAnswerPlaceholders === false
              ? 'Answer placeholders ({{field.…}}) stay empty in the reply while “Let answers fill placeholders in the reply” is off.'
              : undefined
          }
          onChange={(value) => setDraft({ ...draft, [setting.key]: value })}
        />
      ))}
      <div class="actions">
        <button type="submit" disabled={busy || !changed}>
          Save {group.title.toLowerCase()}
        </button>
        <span role="status">{message}</span>
      </div>
    </form>
  );
}

function Control(props: {
  setting: Setting;
  value: string | boolean;
  problem?: string;
  locked: boolean;
  form: Form;
  answersEmpty?: string;
  onChange: (value: string | boolean) => void;
}) {
  const { setting, value, problem, locked, form } = props;
  const id = idOf(setting.key);
  const field = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  const keep = (element: HTMLInputElement | HTMLTextAreaElement | null) => {
    field.current = element;
  };
  const notes = [
    locked && 'Needs the Pro plan: a Free team can clear it but not set it.',
    setting.hint,
    setting.kind === 'secret' &&
      (form.captchaSecretKeySet
        ? 'A secret is saved; type a new one to replace it.'
        : 'None saved.'),
    setting.kind === 'datetime' &&
      (value
        ? `In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}); UTC ${new Date(value as string).toISOString().replace('.000Z', 'Z')}.`
        : `In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}).`),
  ].filter(Boolean) as string[];
  const hint = notes.length > 0 ? notes.join(' ') : undefined;
  const common = {
    id,
    // Placeholder buttons insert where the cursor is once the control has been entered.
    onFocus: (event: { currentTarget: HTMLElement }) => {
      event.currentTarget.dataset.entered = 'yes';
    },
    disabled: locked && !(setting.kind === 'checkbox' ? value === true : value !== ''),
    'aria-invalid': problem ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id, { hint, problem }),
  };
  const text = (event: { currentTarget: { value: string } }) =>
    props.onChange(event.currentTarget.value);
  let control: ComponentChildren;
  switch (setting.kind) {
    case 'checkbox':
      control = (
        <input
          type="checkbox"
          {...common}
          checked={value as boolean}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
      );
      break;
    case 'select':
      control = (
        <select {...common} value={value as string} onChange={text}>
          {setting.options!.map(([option, label]) => (
            <option key={option} value={option}>
              {label}
            </option>
          ))}
        </select>
      );
      break;
    case 'textarea':
    case 'lines':
      control = (
        <textarea
          {...common}
          ref={keep}
          rows={setting.kind === 'lines' ? 4 : 5}
          value={value as string}
          onInput={text}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          ref={keep}
          // Preact types each input type apart; the table above names the right one.
          type={INPUT_TYPES[setting.kind] as 'text'}
          autoComplete={setting.kind === 'secret' ? 'new-password' : undefined}
          value={value as string}
          onInput={text}
        />
      );
  }
  return (
    <div class={`setting ${setting.kind === 'checkbox' ? 'check' : ''}`}>
      {setting.kind === 'checkbox' ? (
        <>
          {control}
          <label for={id}>{setting.label}</label>
        </>
      ) : (
        <>
          <label for={id}>{setting.label}</label>
          {control}
        </>
      )}
      <FieldNotes id={id} hint={hint} problem={problem} />
      {setting.placeholders && !common.disabled && (
        <PlaceholderButtons
          form={form}
          label={setting.label}
          control={field}
          value={value as string}
          onChange={props.onChange}
          answersEmpty={props.answersEmpty}
        />
      )}
    </div>
  );
}
