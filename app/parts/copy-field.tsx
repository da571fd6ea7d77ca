import { useState } from 'preact/hooks';

/** A read-only value with its label and a copy button that says when it copied. */
export function CopyField(props: { label: string; value: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  const id = `copy-${props.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const copy = async () => {
    await navigator.clipboard.writeText(props.value);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div class="copy-field">
      <label for={id}>{props.label}</label>
      {props.multiline ? (
        <textarea
          id={id}
          readOnly
          rows={Math.min(14, props.value.split('\n').length + 1)}
          value={props.value}
        />
      ) : (
        <input id={id} readOnly value={props.value} />
      )}
      <button type="button" onClick={copy} aria-label={`Copy ${props.label}`}>
        Copy
      </button>
      <span role="status" class="copied">
        {copied ? 'Copied' : ''}
      </span>
    </div>
  );
}
