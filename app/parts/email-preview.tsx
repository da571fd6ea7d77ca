import type { ComponentChildren } from 'preact';
import type { EmailMessage } from '#domain/email-messages.ts';

/**
 * The HTML body without its style attributes: the frame inherits the
 * dashboard's Content-Security-Policy (no inline styles), and a preview is
 * not worth loosening it. The template escapes every quote of user text, so
 * only its own attributes match.
 */
const withoutInlineStyles = (html: string) => html.replace(/ style="[^"]*"/g, '');

export function EmailPreview(props: {
  title: string;
  state: string;
  message: EmailMessage;
  children?: ComponentChildren;
}) {
  const { message } = props;
  const id = props.title.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <section class="email-preview" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      <p class="hint">{props.state}</p>
      {props.children}
      <dl class="headers">
        <div>
          <dt>Subject</dt>
          <dd>{message.subject}</dd>
        </div>
        <div>
          <dt>From</dt>
          <dd>{message.fromName}</dd>
        </div>
        <div>
          <dt>To</dt>
          <dd>{message.to}</dd>
        </div>
        {message.cc && message.cc.length > 0 && (
          <div>
            <dt>Cc</dt>
            <dd>{message.cc.join(', ')}</dd>
          </div>
        )}
        {message.replyTo && (
          <div>
            <dt>Reply-To</dt>
            <dd>{message.replyTo}</dd>
          </div>
        )}
      </dl>
      <pre class="email-text">{message.text}</pre>
      <iframe
        title={`${props.title}: HTML`}
        sandbox=""
        srcDoc={withoutInlineStyles(message.html)}
        class="email-html"
      />
    </section>
  );
}
