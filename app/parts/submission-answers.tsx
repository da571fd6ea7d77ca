import { type AnswerRow, replyHref, type Shown } from '../answers.ts';
import { FileEntry } from './file-scan.tsx';

/**
 * The answers of a submission as the answers model shows them
 * (`app/answers.ts`): text as text (Preact escapes it), an address as a
 * mailto, a phone number as tel:, an http(s) address as a link that tells
 * the browser nothing of the dashboard, a checkbox list as a list, and a
 * file field's files with their scan states and download buttons (file-scan.tsx).
 */
export function AnswerList(props: {
  rows: AnswerRow[];
  formName: string;
  /** The submission's `createdAt`: how late a file still being checked is. */
  createdAt: string;
  download: (index: number) => void;
}) {
  return (
    <dl class="answers">
      {props.rows.map((row) => (
        <div key={row.id} class={row.problem ? 'answer problem' : 'answer'}>
          <dt>{row.label}</dt>
          <dd>
            <AnswerValue
              shown={row.shown}
              formName={props.formName}
              createdAt={props.createdAt}
              download={props.download}
            />
            {row.problem && <p class="reason">{row.problem}</p>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function AnswerValue(props: {
  shown: Shown;
  formName: string;
  createdAt: string;
  download: (index: number) => void;
}) {
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
            <FileEntry
              key={file.index}
              file={file}
              createdAt={props.createdAt}
              download={props.download}
            />
          ))}
        </ul>
      );
  }
}
