import { useState } from 'preact/hooks';

/**
 * A read-only value with its label, a line saying what it is for, and a copy
 * button that says when it copied (or, where the browser refuses the
 * clipboard, to select and copy by hand).
 */
export function CopyField(props: {
  label: string;
  value: string;
  hint?: string;
  multiline?: boolean;
}) {
  const [copied, setCopied] = useState<string>();
  const id = `copy-${props.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('Copied');
    } catch {
      setCopied('Not copied: select it and copy by hand');
    }
    setTimeout(() => setCopied(undefined), 2000);
  };
  const described = props.hint ? `${id}-hint` : undefined;
  return (
    <div class="copy-field">
      <label for={id}>{props.label}</label>
      {props.hint && (
        <p id={described} class="hint">
          {props.hint}
        </p>
      )}
      {props.multiline ? (
        <textarea
          id={id}
          readOnly
          aria-describedby={described}
          rows={Math.min(14, props.value.split('\n').length + 1)}
          value={props.value}
        />
      ) : (
        <input id={id} readOnly aria-describedby={described} value={props.value} />
      )}
      <button type="button" onClick={copy} aria-label={`Copy ${props.label}`}>
        Copy
      </button>
      <span role="status" class="copied">
        {copied ?? ''}
      </span>
    </div>
  );
}
