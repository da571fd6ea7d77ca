import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, onSignedOut } from './api.ts';
import { MAYBE_SIGNED_IN } from './base.ts';
import { ErrorBoundary } from './parts/error-boundary.tsx';
import { Problem } from './parts/feedback.tsx';
import { FormWorkspace } from './parts/form-workspace.tsx';
import { Header } from './parts/header.tsx';
import { paths } from './paths.ts';
import { findRoute, navigate, setRoutes, useLocation } from './router.ts';
import { NotFound, ROUTES } from './routes.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { rememberPlace, type Session, SessionContext } from './session.ts';

setRoutes(ROUTES);

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

  useEffect(load, [load]);
  useEffect(
    () =>
      onSignedOut(() => {
        rememberPlace(currentPlace());
        setState({ kind: 'out' });
      }),
    [],
  );
  useEffect(() => {
    if (state.kind === 'out' && location.path !== paths.signIn())
      navigate(paths.signIn(), { replace: true });
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
  if (state.kind === 'out' || location.path === paths.signIn()) {
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

/**
 * The screen of the path, in an error boundary (a screen that throws shows
 * what happened and a way on); a form's screens inside its workspace, which
 * stays mounted from tab to tab.
 */
function Screen(props: { path: string; query: URLSearchParams }) {
  const { path, query } = props;
  const found = findRoute(path);
  if (!found?.route.tab)
    return (
      <ErrorBoundary resetKey={path}>
        {found ? found.route.render(found.params, query) : <NotFound />}
      </ErrorBoundary>
    );
  return (
    <FormWorkspace formId={found.params.id!} tab={found.route.tab} query={query}>
      <ErrorBoundary resetKey={path} level={2}>
        {found.route.render(found.params, query)}
      </ErrorBoundary>
    </FormWorkspace>
  );
}
