import { type AnswerRow, replyHref, type Shown, size } from '../answers.ts';

/**
 * The answers of a submission as the answers model shows them
 * (`app/answers.ts`): text as text (Preact escapes it), an address as a
 * mailto, a phone number as tel:, an http(s) address as a link that tells
 * the browser nothing of the dashboard, a checkbox list as a list, and a
 * file field's files with their download buttons.
 */
export function AnswerList(props: {
  rows: AnswerRow[];
  formName: string;
  download: (index: number) => void;
}) {
  return (
    <dl class="answers">
      {props.rows.map((row) => (
        <div key={row.id} class={row.problem ? 'answer problem' : 'answer'}>
          <dt>{row.label}</dt>
          <dd>
            <AnswerValue shown={row.shown} formName={props.formName} download={props.download} />
            {row.problem && <p class="reason">{row.problem}</p>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function AnswerValue(props: { shown: Shown; formName: string; download: (index: number) => void }) {
  const { shown } = props;
  switch (shown.kind) {
    case 'empty':
      return <span class="empty">(no answer)</span>;
    case 'text':
      return <>{shown.text}</>;
    case 'email':
      return <a href={replyHref(shown.address, props.formName)}>{shown.address}</a>;
    case 'tel':
      return <a href={shown.href}>{shown.number}</a>;
    case 'url':
      return (
        <a href={shown.href} rel="noopener noreferrer nofollow" target="_blank">
          {shown.text}
        </a>
      );
    case 'list':
      return (
        <ul class="choices">
          {shown.items.map((item, index) => (
            <li key={`${index}-${item}`}>{item}</li>
          ))}
        </ul>
      );
    case 'files':
      return (
        <ul class="files">
          {shown.files.map((file) => (
            <li key={file.index}>
              {file.name}{' '}
              <span class="meta">
                ({file.mime}, {size(file.size)})
              </span>{' '}
              <button
                type="button"
                onClick={() => props.download(file.index)}
                aria-label={`Download ${file.name}`}
              >
                Download
              </button>
            </li>
          ))}
        </ul>
      );
  }
}
