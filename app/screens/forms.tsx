import { useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { failureWords, useQuery } from '../data.ts';
import { FORM_TYPE_WORDS, FORM_TYPES } from '../form-types.ts';
import type { Form, FormSummary, TeamView } from '../model.ts';
import { Loading, Problem } from '../parts/feedback.tsx';
import { Link } from '../parts/link.tsx';
import { StatusBadge } from '../parts/status-badge.tsx';
import { submissionsAndTests } from '../parts/submission-count.tsx';
import { UsageBar } from '../parts/usage-bar.tsx';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';

/** The team's forms, newest first, this month's usage, and a new form. */
export function Forms() {
  const shown = useQuery('forms', async (signal) => {
    const [list, team] = await Promise.all([
      call('listForms', { signal }),
      call('getTeam', { signal }),
    ]);
    // Why a paused form is closed is on the form itself: few forms are paused.
    const paused = list.forms.filter((form) => form.status === 'paused');
    const reasons = await Promise.all(
      paused.map((form) =>
        call('getForm', { params: { id: form.id }, signal }).catch(() => undefined),
      ),
    );
    const closed: Record<string, Form['closedReason']> = Object.fromEntries(
      reasons.flatMap((form) => (form ? [[form.id, form.closedReason]] : [])),
    );
    return { forms: list.forms, team, closed };
  });
  const { error, reload: load } = shown;
  const { forms, team, closed = {} } = shown.data ?? {};

  return (
    <main id="main">
      <h1>Forms</h1>
      {team && <UsageBar team={team} />}
      <NewForm team={team} />
      {error ? (
        <Problem error={error} retry={load} />
      ) : !forms ? (
        <Loading label="Loading forms…" />
      ) : forms.length === 0 ? (
        <p>No forms yet: create your first one above.</p>
      ) : (
        <ul class="forms" aria-label="Forms">
          {forms.map((form) => (
            <li key={form.id}>
              <Link to={paths.inbox(form.id)} class="form-name">
                {form.emoji && <span aria-hidden="true">{form.emoji} </span>}
                {form.name}
              </Link>
              <span class="type">{FORM_TYPE_WORDS[form.type].label}</span>
              <StatusBadge status={form.status} closedReason={closed[form.id] ?? null} />
              <span class="count">{submissionsAndTests(form.submissionCount, form.testCount)}</span>
              <span class={form.unreadCount > 0 ? 'count unread' : 'count'}>
                {form.unreadCount} unread
              </span>
              <DuplicateButton form={form} onDone={load} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

function NewForm(props: { team: TeamView | undefined }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<Form['type']>('contact');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const form = await call('createForm', { body: { name, type } });
      navigate(paths.formTab(form.id, 'share'));
    } catch (failure) {
      setError(limitOrMessage(failure, props.team));
      setBusy(false);
    }
  };
  return (
    <form class="new-form" onSubmit={create}>
      <h2>New form</h2>
      <label for="new-form-name">Name</label>
      <input
        id="new-form-name"
        required
        maxLength={200}
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <label for="new-form-type">Type</label>
      <select
        id="new-form-type"
        value={type}
        aria-describedby="new-form-type-help"
        onChange={(e) => setType(e.currentTarget.value as Form['type'])}
      >
        {FORM_TYPES.map((each) => (
          <option key={each} value={each}>
            {FORM_TYPE_WORDS[each].label}
          </option>
        ))}
      </select>
      <p id="new-form-type-help" class="hint">
        {FORM_TYPE_WORDS[type].description}
      </p>
      <button type="submit" disabled={busy}>
        Create form
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function DuplicateButton(props: { form: FormSummary; onDone: () => void }) {
  const [error, setError] = useState<string>();
  const duplicate = async () => {
    setError(undefined);
    try {
      await call('duplicateForm', { params: { id: props.form.id }, body: {} });
      props.onDone();
    } catch (failure) {
      setError(limitOrMessage(failure, undefined));
    }
  };
  return (
    <span class="duplicate">
      <button
        type="button"
        class="quiet"
        onClick={duplicate}
        aria-label={`Duplicate ${props.form.name}`}
      >
        Duplicate
      </button>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/** A 402 in words: the Free plan's form limit, and what to do about it. */
function limitOrMessage(failure: unknown, team: TeamView | undefined): string {
  if (failure instanceof ApiError && failure.code === 'form_limit_reached') {
    const limit = team?.formLimit ?? 3;
    return `The Free plan allows ${limit} forms. Delete a form you no longer use, or move the team to Pro for unlimited forms.`;
  }
  return failureWords(failure);
}
