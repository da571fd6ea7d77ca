import { type ComponentChildren, createContext } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { BASE_PATH } from '../base.ts';
import { useAction, useQuery } from '../data.ts';
import { readForm } from '../form-read.ts';
import { FOLDERS, type Folder, type Form } from '../model.ts';
import { FORM_TABS, type FormTab, paths } from '../paths.ts';
import { Outcome, Problem } from './feedback.tsx';
import { BackLink, Link } from './link.tsx';
import { MenuButton } from './menu.tsx';
import { StatusBadge } from './status-badge.tsx';

const TAB_NAMES: Record<FormTab, string> = {
  inbox: 'Inbox',
  summary: 'Summary',
  share: 'Share',
  settings: 'Settings',
  fields: 'Fields',
  design: 'Design',
  emails: 'Emails',
  webhook: 'Webhook',
  integrations: 'Integrations',
};

/**
 * Between the workspace and the screen in it: how many test submissions its
 * menu sent (the inbox reads again), and the form a screen saved (a new name
 * shows in the header at once).
 */
export const WorkspaceContext = createContext<{
  testsSent: number;
  formSaved: (form: Form) => void;
}>({ testsSent: 0, formSaved: () => undefined });

/** The form's name, the page's `h1`: where focus goes when a form is opened. */
export const FORM_TITLE_ID = 'form-title';

/**
 * Every screen of one form sits under the same header: the way back to the
 * forms, the form's name and status, its tabs (the current one
 * `aria-current="page"`) and a menu for Export and "Send a test submission".
 * The header sticks to the top while the screen scrolls, and stays mounted
 * from tab to tab: docs/dashboard.md#a-forms-workspace.
 */
export function FormWorkspace(props: {
  formId: string;
  tab: FormTab;
  query: URLSearchParams;
  children: ComponentChildren;
}) {
  const { formId, tab } = props;
  const form = useQuery(formId, (signal) => readForm(formId, signal));
  const action = useAction();
  const [testsSent, setTestsSent] = useState(0);
  const head = useRef<HTMLDivElement>(null);
  useStickyHeight(head);
  // On a phone the tabs are a row that scrolls sideways: the current one is kept in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new tab is what moves the row
  useEffect(() => {
    head.current
      ?.querySelector('.tabs [aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  // "Test submission sent" was about the screen it was sent from: another tab or form drops it.
  const { clear } = action;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new tab or form is what clears it
  useEffect(clear, [tab, formId, clear]);

  if (form.error)
    return (
      <main id="main">
        <Problem error={form.error} retry={form.reload}>
          <BackLink to={paths.forms()}>Back to your forms</BackLink>
        </Problem>
      </main>
    );

  // The inbox exports the folder it shows; elsewhere, everything.
  const wanted = props.query.get('folder') as Folder;
  const folder = tab === 'inbox' && FOLDERS.includes(wanted) ? wanted : 'all';
  const shown = form.data?.id === formId ? form.data : undefined;
  const sendTest = () =>
    action.run(async () => {
      await call('sendTestSubmission', { params: { id: formId } });
      setTestsSent((count) => count + 1);
    }, 'Test submission sent');

  return (
    <>
      <div class="workspace-head" ref={head}>
        <BackLink to={paths.forms()}>All forms</BackLink>
        <div class="title">
          {/* Focused when a form is opened with nothing focused (docs/dashboard.md#inbox-keys). */}
          <h1 id={FORM_TITLE_ID} tabIndex={-1}>
            {shown?.emoji && <span aria-hidden="true">{shown.emoji} </span>}
            {shown?.name ?? 'Loading…'}
          </h1>
          {shown && <StatusBadge status={shown.status} closedReason={shown.closedReason} />}
          <MenuButton label="Actions">
            <a
              role="menuitem"
              tabIndex={-1}
              // Labels for a person (scripts keep the ids, the default): docs/submissions.md#csv-columns.
              href={`${BASE_PATH}/v1/forms/${formId}/export.csv?filter=${folder}&header=labels`}
              download
            >
              Export CSV
            </a>
            <button role="menuitem" tabIndex={-1} type="button" onClick={sendTest}>
              Send a test submission
            </button>
          </MenuButton>
        </div>
        <nav aria-label="Form" class="tabs">
          {FORM_TABS.map((each) => (
            <Link
              key={each}
              to={paths.formTab(formId, each)}
              aria-current={each === tab ? 'page' : undefined}
            >
              {TAB_NAMES[each]}
            </Link>
          ))}
        </nav>
        <Outcome action={action} />
      </div>
      <WorkspaceContext.Provider value={{ testsSent, formSaved: form.setData }}>
        {props.children}
      </WorkspaceContext.Provider>
    </>
  );
}

/**
 * The header's height as `--workspace-head`, so what sticks below it (the
 * inbox's bulk bar) sticks under it rather than behind it.
 */
function useStickyHeight(head: { current: HTMLElement | null }) {
  useEffect(() => {
    const element = head.current;
    if (!element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty('--workspace-head', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--workspace-head');
    };
  }, [head.current]);
}
