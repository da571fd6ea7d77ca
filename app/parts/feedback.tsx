import type { ComponentChildren } from 'preact';
import { ApiError, isTransient } from '../api.ts';
import { type Action, failureWords } from '../data.ts';

/** What went wrong reading a screen, in words, with a retry where trying again may help. */
export function Problem(props: {
  error: unknown;
  retry?: () => void;
  children?: ComponentChildren;
}) {
  const { error } = props;
  const message =
    error instanceof ApiError && error.status === 404
      ? 'This no longer exists: it may have been deleted.'
      : failureWords(error);
  return (
    <div class="problem" role="alert">
      <p>{message}</p>
      {props.children}
      {props.retry && isTransient(error) && (
        <button type="button" onClick={props.retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** An action's outcome: its notice (announced politely), or its failure in words (an alert). */
export function Outcome(props: {
  action: Pick<Action, 'notice' | 'error'> & Partial<Pick<Action, 'undo'>>;
}) {
  const { undo } = props.action;
  return (
    <>
      <p role="status" class="notice">
        {props.action.notice}
      </p>
      {/* Beside the notice, never inside the live region: a button is not news. */}
      {undo && props.action.notice && (
        <button type="button" class="undo" aria-keyshortcuts="z" onClick={undo}>
          Undo{' '}
          <span class="key" aria-hidden="true">
            z
          </span>
        </button>
      )}
      {props.action.error && (
        <p role="alert" class="problem">
          {props.action.error}
        </p>
      )}
    </>
  );
}

/**
 * A screen whose read has not shown yet: its problem with a retry, else the
 * loading line, in the screen's `main` (the skip link's target).
 */
export function ScreenPending(props: {
  error: unknown;
  retry: () => void;
  label?: string;
  children?: ComponentChildren;
}) {
  return (
    <main id="main">
      {props.error ? (
        <Problem error={props.error} retry={props.retry}>
          {props.children}
        </Problem>
      ) : (
        <Loading label={props.label} />
      )}
    </main>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status">
      {props.label ?? 'Loading…'}
    </p>
  );
}
