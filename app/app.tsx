import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, onSignedOut } from './api.ts';
import { MAYBE_SIGNED_IN } from './base.ts';
import { Problem } from './parts/feedback.tsx';
import { Header } from './parts/header.tsx';
import { lazyScreen } from './parts/lazy.tsx';
import { match, navigate, useLocation } from './router.ts';
import { Forms } from './screens/forms.tsx';
import { Inbox } from './screens/inbox.tsx';
import { Share } from './screens/share.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { SubmissionView } from './screens/submission.tsx';
import { SummaryScreen } from './screens/summary.tsx';
import { TeamScreen } from './screens/team.tsx';
import { WebhookScreen } from './screens/webhook.tsx';
import { rememberPlace, type Session, SessionContext } from './session.ts';

/** The settings screen checks with the route's own schema (zod and more): loaded when opened. */
const SettingsScreen = lazyScreen(() =>
  import('./screens/settings.tsx').then((module) => module.SettingsScreen),
);

/** The fields builder checks with the route's own field schema: loaded when opened. */
const FieldsScreen = lazyScreen(() =>
  import('./screens/fields.tsx').then((module) => module.FieldsScreen),
);

/** The design screen draws the hosted page's own markup: loaded when opened. */
const DesignScreen = lazyScreen(() =>
  import('./screens/design.tsx').then((module) => module.DesignScreen),
);

/** The emails screen renders the email worker's own templates: loaded when opened. */
const EmailsScreen = lazyScreen(() =>
  import('./screens/emails.tsx').then((module) => module.EmailsScreen),
);

/** The app path and query of the page (`/forms/x/submissions/y?folder=spam`). */
const currentPlace = () =>
  `${window.location.pathname.replace(/^.*?\/app/, '') || '/'}${window.location.search}`;

type State =
  | { kind: 'loading' }
  | { kind: 'out' }
  | { kind: 'in'; session: Session }
  | { kind: 'failed'; error: unknown };

export function App() {
  const location = useLocation();
  const [state, setState] = useState<State>({ kind: 'loading' });
  // After a sign-in in this page, the cookie exists whatever the shell saw.
  const signedInOnce = useRef(false);

  const load = useCallback(() => {
    // A page opened signed out (a notification's "View submission" link) is where sign-in lands.
    const signedOut = () => {
      rememberPlace(currentPlace());
      setState({ kind: 'out' });
    };
    if (!signedInOnce.current && !MAYBE_SIGNED_IN) {
      signedOut();
      return;
    }
    call('getSession')
      .then((session) => setState({ kind: 'in', session }))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) signedOut();
        else setState({ kind: 'failed', error });
      });
  }, []);

  useEffect(load, []);
  useEffect(
    () =>
      onSignedOut(() => {
        rememberPlace(currentPlace());
        setState({ kind: 'out' });
      }),
    [],
  );
  useEffect(() => {
    if (state.kind === 'out' && location.path !== '/sign-in')
      navigate('/sign-in', { replace: true });
  }, [state.kind, location.path]);

  if (state.kind === 'loading')
    return (
      <p role="status" class="loading">
        Loading…
      </p>
    );
  if (state.kind === 'failed')
    return (
      <main id="main">
        <Problem error={state.error} retry={load} />
      </main>
    );
  if (state.kind === 'out' || location.path === '/sign-in') {
    return (
      <SignIn
        onSignedIn={() => {
          signedInOnce.current = true;
          // Not 'out' any more, or the redirect to sign-in below would undo the navigation.
          setState({ kind: 'loading' });
          load();
        }}
      />
    );
  }
  return (
    <SessionContext.Provider value={state.session}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header onSignedOut={() => setState({ kind: 'out' })} onSwitched={load} />
      <Screen path={location.path} query={location.query} />
    </SessionContext.Provider>
  );
}

function Screen(props: { path: string; query: URLSearchParams }) {
  const { path, query } = props;
  let found = match('/forms/:id/submissions/:submissionId', path);
  if (found)
    return <SubmissionView formId={found.id!} submissionId={found.submissionId!} query={query} />;
  found = match('/forms/:id/summary', path);
  if (found) return <SummaryScreen formId={found.id!} query={query} />;
  found = match('/forms/:id/emails', path);
  if (found) return <EmailsScreen formId={found.id!} />;
  found = match('/forms/:id/design', path);
  if (found) return <DesignScreen formId={found.id!} />;
  found = match('/forms/:id/fields', path);
  if (found) return <FieldsScreen formId={found.id!} />;
  found = match('/forms/:id/settings', path);
  if (found) return <SettingsScreen formId={found.id!} />;
  found = match('/forms/:id/webhook', path);
  if (found) return <WebhookScreen formId={found.id!} />;
  found = match('/forms/:id/share', path);
  if (found) return <Share formId={found.id!} />;
  found = match('/forms/:id', path);
  if (found) return <Inbox formId={found.id!} query={query} />;
  if (path === '/team') return <TeamScreen />;
  if (path === '/' || path === '') return <Forms />;
  return (
    <main id="main">
      <h1>Not found</h1>
      <p>There is no page here.</p>
    </main>
  );
}
