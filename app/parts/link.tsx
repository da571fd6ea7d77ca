import type { ComponentChildren } from 'preact';
import { appUrl } from '../base.ts';
import { navigate } from '../router.ts';

/** An in-app link: a real `<a href>` (open in a new tab works), navigated without a reload. */
export function Link(props: {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
}) {
  return (
    <a
      href={appUrl(props.to)}
      class={props.class}
      aria-current={props['aria-current']}
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
