import { call } from '../api.ts';
import { useQuery } from '../data.ts';
import { FORM_TYPE_WORDS } from '../form-types.ts';
import type { Form } from '../model.ts';
import { Loading, Problem } from '../parts/feedback.tsx';
import { DuplicateButton } from '../parts/form-duplicate-button.tsx';
import { Link } from '../parts/link.tsx';
import { NewForm } from '../parts/new-form.tsx';
import { StatusBadge } from '../parts/status-badge.tsx';
import { submissionsAndTests } from '../parts/submission-count.tsx';
import { nearLimit, UsageBar } from '../parts/usage-bar.tsx';
import { paths } from '../paths.ts';

/**
 * The team's forms, newest first, then a new form and this month's usage
 * (docs/dashboard.md#screens): on a phone the first form is in sight.
 */
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
      {/* The forms first, so the first one is in sight on a phone; then a new one, then usage,
          unless new submissions are about to be refused: that warning comes first. */}
      {team && nearLimit(team) && <UsageBar team={team} />}
      {error ? (
        <Problem error={error} retry={load} />
      ) : !forms ? (
        <Loading label="Loading forms…" />
      ) : forms.length === 0 ? (
        <p>No forms yet: create your first one below.</p>
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
      <NewForm team={team} />
      {team && !nearLimit(team) && <UsageBar team={team} />}
    </main>
  );
}
