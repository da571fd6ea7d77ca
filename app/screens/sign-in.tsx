import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { failureWords } from '../data.ts';
import { navigate } from '../router.ts';
import { takePlace } from '../session.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sign in by email: the address, then the link in the email (it lands here
 * with the token in the URL fragment) or the 6-digit code it holds. An
 * invitation's link (docs/people.md#invitations) lands here too, with its
 * team beside the token.
 */
export function SignIn(props: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const done = () => {
    props.onSignedIn();
    navigate(takePlace(), { replace: true });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a sign-in link's token is read once, on arrival
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const token = fragment.get('token');
    if (!token) return;
    // An invitation's link names its team: accepting it opens that team, not the one used last.
    const team = fragment.get('team') ?? '';
    const teamId = UUID.test(team) ? team : undefined;
    // The token leaves the address bar (and history) at once.
    window.history.replaceState(null, '', window.location.pathname);
    setBusy(true);
    call('verifySignIn', { body: teamId ? { token, teamId } : { token } })
      .then(done)
      .catch((failure: unknown) => {
        setBusy(false);
        setError(
          failure instanceof ApiError && failure.status === 401
            ? teamId
              ? 'This invitation link has been used or its 7 days are over. Sign in with your address below, or ask the team’s owner to send the invitation again.'
              : 'This sign-in link has been used or has expired. Ask for a new one.'
            : messageOf(failure),
        );
      });
  }, []);

  const ask = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('signIn', { body: { email } });
      setSent(true);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('verifySignIn', { body: { email, code: code.trim() } });
      done();
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? 'That code is wrong, used or expired, a newer email replaced it, or codes were tried too often this hour. The link in the email still works.'
          : messageOf(failure),
      );
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Sign in</h1>
      {!sent ? (
        <form onSubmit={ask} noValidate={false}>
          <label for="email">Email address</label>
          <input
            id="email"
            type="email"
            autocomplete="email"
            required
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Email me a sign-in link
          </button>
        </form>
      ) : (
        <form onSubmit={verify}>
          <p role="status">
            Check your inbox: we sent a sign-in link and a 6-digit code to <strong>{email}</strong>{' '}
            (if it belongs to a member). The link and the code work once, for 15 minutes.
          </p>
          <label for="code">6-digit code</label>
          <input
            id="code"
            inputMode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onInput={(event) => setCode(event.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Sign in
          </button>
          <button type="button" class="quiet" onClick={() => setSent(false)}>
            Use another address
          </button>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}

const messageOf = failureWords;
