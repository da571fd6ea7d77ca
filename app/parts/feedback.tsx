import type { ComponentChildren } from 'preact';
import { ApiError, isTransient } from '../api.ts';

/** What went wrong, in words, with a retry where trying again may help. */
export function Problem(props: {
  error: unknown;
  retry?: () => void;
  children?: ComponentChildren;
}) {
  const { error } = props;
  const message =
    error instanceof ApiError
      ? error.status === 404
        ? 'This no longer exists: it may have been deleted.'
        : error.message
      : 'Something went wrong.';
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

export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status">
      {props.label ?? 'Loading…'}
    </p>
  );
}
