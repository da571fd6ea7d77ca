import type { ComponentChildren } from 'preact';
import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * A menu button (the WAI-ARIA pattern): Enter, Space or ↓ opens it on its
 * first item, ↑ on its last; ↑ ↓ Home End move, Escape closes it back onto
 * the button, Tab or a click elsewhere closes it. Its items are elements
 * with `role="menuitem"` (links or buttons), each closing it when chosen.
 */
export function MenuButton(props: { label: string; children: ComponentChildren }) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const items = useCallback(
    () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])],
    [],
  );

  // Before the next key is handled: the item opened on has the focus at once.
  useLayoutEffect(() => {
    if (!open) return;
    const all = items();
    (open === 'first' ? all[0] : all.at(-1))?.focus();
    const away = (event: Event) => {
      if (!list.current?.contains(event.target as Node) && event.target !== button.current)
        setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, items]);

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div class="menu">
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={Boolean(open)}
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={onButtonKey}
      >
        {props.label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          role="menu"
          aria-label={props.label}
          ref={list}
          onKeyDown={onMenuKey}
          onClick={(event) => {
            // After the item's own default (a link's download) has run, not before.
            if ((event.target as HTMLElement).closest('[role="menuitem"]'))
              setTimeout(() => {
                setOpen(false);
                button.current?.focus();
              });
          }}
        >
          {props.children}
        </div>
      )}
    </div>
  );
}
