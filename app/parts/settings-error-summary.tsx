import { useEffect, useRef } from 'preact/hooks';

/** One line of an error summary: the sentence and the control it links to. */
export interface SummaryItem {
  control: string;
  summary: string;
  /** The refused line of a list (from 1): selected when the link is followed. */
  line?: number;
}

/**
 * Puts the keyboard on a control (and selects the refused line of a list),
 * once the render that shows it is done: a collapsed field card opens first.
 */
export function focusControl(item: SummaryItem): void {
  setTimeout(() => {
    const control = document.getElementById(item.control);
    if (!control) return;
    control.scrollIntoView({ block: 'center' });
    control.focus();
    if (item.line !== undefined && control instanceof HTMLTextAreaElement) {
      const lines = control.value.split('\n');
      const start = lines.slice(0, item.line - 1).reduce((at, line) => at + line.length + 1, 0);
      control.setSelectionRange(start, start + (lines[item.line - 1]?.length ?? 0));
    }
  }, 0);
}

/**
 * The problems of a refused save, at the top of its section: a heading that
 * takes the keyboard on each refusal (`attempt` counts them), so the person
 * hears how many and what; each line a link to its control
 * (docs/dashboard.md#settings-and-fields).
 */
export function ErrorSummary<T extends SummaryItem>(props: {
  id: string;
  items: readonly T[];
  attempt: number;
  /** Called before the control is focused (a card to open). */
  onFollow?: (item: T) => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const count = props.items.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each refused save moves the focus, also when the problems are the same
  useEffect(() => {
    if (props.attempt > 0 && count > 0) heading.current?.focus();
  }, [props.attempt]);
  if (count === 0) return null;
  return (
    <div class="error-summary">
      <h3 id={`${props.id}-problems`} ref={heading} tabIndex={-1}>
        {count === 1 ? 'One thing to correct' : `${count} things to correct`}: nothing was saved
      </h3>
      <ul>
        {props.items.map((item) => (
          <li key={`${item.control}-${item.summary}`}>
            <a
              href={`#${item.control}`}
              onClick={(event) => {
                event.preventDefault();
                props.onFollow?.(item);
                focusControl(item);
              }}
            >
              {item.summary}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
