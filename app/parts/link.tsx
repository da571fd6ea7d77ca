import type { ComponentChildren } from 'preact';
import { appUrl } from '../base.ts';
import { navigate, preload } from '../router.ts';

/**
 * An in-app link: a real `<a href>` (open in a new tab works), navigated
 * without a reload. Pointing at it or focusing it fetches a lazy screen's
 * code, so the click seldom waits for it.
 */
export function Link(props: {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
}) {
  const warm = () => preload(props.to);
  return (
    <a
      href={appUrl(props.to)}
      class={props.class}
      aria-current={props['aria-current']}
      onPointerEnter={warm}
      onFocus={warm}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
          return;
        event.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

/** The one way back up: an arrow and where it goes, on a line of its own unless `inline`. */
export function BackLink(props: { to: string; children: ComponentChildren; inline?: boolean }) {
  const link = (
    <Link to={props.to} class="back">
      <span aria-hidden="true">← </span>
      {props.children}
    </Link>
  );
  return props.inline ? link : <p class="back-line">{link}</p>;
}
