import type { ComponentChildren } from 'preact';
import {
  autoReply,
  DEFAULT_AUTOREPLY_BODY,
  DEFAULT_AUTOREPLY_SUBJECT,
  type EmailMessage,
  ownerNotification,
} from '#domain/email-messages.ts';
import { type PlaceholderKind, placeholdersIn } from '#domain/email-placeholders.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { Submission } from '#domain/submission-model.ts';
import { BASE_PATH } from '../base.ts';
import type { Form } from '../model.ts';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { useSession } from '../session.ts';

/** A sample answer for each type of field, as a visitor might send it. */
const SAMPLE: Record<string, string> = {
  email: 'ada@example.com',
  number: '3',
  rating: '4',
  date: '2026-12-01',
  tel: '+44 20 7946 0000',
  url: 'https://example.com',
  checkbox: 'on',
  textarea: 'Could you send me the price list for the spring workshop?',
};

function sampleSubmission(form: Form): Submission {
  const data: Record<string, string> = {};
  const fields = form.fields ?? [
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'email', type: 'email', label: 'Email' },
    { id: 'message', type: 'textarea', label: 'Message' },
  ];
  for (const field of fields) {
    if (field.type === 'file') continue;
    data[field.id] =
      field.type === 'select' || field.type === 'radio'
        ? (field.options?.[0] ?? '')
        : (SAMPLE[field.type] ?? (field.id === 'name' ? 'Ada Lovelace' : 'A sample answer'));
  }
  return {
    id: '00000000-0000-7000-8000-000000000000',
    formId: form.id,
    data,
    meta: {
      userAgent: 'Mozilla/5.0',
      referrer: 'https://example.com/contact',
      country: 'GB',
      deviceClass: 'desktop',
    },
    read: false,
    starred: false,
    isSpam: false,
    isTest: false,
    createdAt: new Date().toISOString(),
  } as Submission;
}

/**
 * The notification and the auto-reply as the form's settings make them
 * now, rendered by the email worker's own templates (email-messages.ts)
 * with a sample submission.
 */
export function EmailsScreen(props: { formId: string }) {
  const loaded = useForm(props.formId);
  return (
    <FormScreen loaded={loaded} class="emails" title={(form) => `Emails of ${form.name}`}>
      {(form) => <Previews form={form} />}
    </FormScreen>
  );
}

function Previews(props: { form: Form }) {
  const { form } = props;
  const session = useSession();
  // The settings the templates read are the same in the API's view of a form.
  const record = form as unknown as FormRecord;
  const submission = sampleSubmission(form);
  const recipient = form.notifyEmail ?? session.user.email;
  const notification = ownerNotification({
    form: record,
    submission,
    recipient,
    baseUrl: `${window.location.origin}${BASE_PATH}`,
  });
  const reply = autoReply({ form: record, submission, to: 'ada@example.com', replyTo: recipient });
  const replyTexts = [
    ['subject', form.autoreplySubject || DEFAULT_AUTOREPLY_SUBJECT],
    ['text', form.autoreplyBody?.trim() ? form.autoreplyBody : DEFAULT_AUTOREPLY_BODY],
  ] as const;
  const notificationTexts = [['subject', form.notifySubject]] as const;
  return (
    <>
      <p class="hint">
        Made by the same templates as the real emails, from this form's saved settings and a sample
        submission (the HTML without its few inline styles). Change them in{' '}
        <Link to={paths.formTab(form.id, 'settings')}>Settings</Link>.
      </p>
      <Message
        title="Notification to you"
        state={form.notifyEnabled ? 'On' : 'Off: no notification is sent'}
        message={notification}
      >
        <EmptyMarks texts={notificationTexts} kind="unknown" formId={form.id}>
          Not placeholders, so sent as nothing (saving the setting again asks to correct them):
        </EmptyMarks>
      </Message>
      <Message
        title="Auto-reply to the submitter"
        state={form.autoreplyEnabled ? 'On' : 'Off: no auto-reply is sent'}
        message={reply}
      >
        {!form.autoreplyAnswerPlaceholders && (
          <EmptyMarks texts={replyTexts} kind="field" formId={form.id}>
            Empty in the sent reply, because “Let answers fill placeholders in the reply” is off:
          </EmptyMarks>
        )}
        <EmptyMarks texts={replyTexts} kind="unknown" formId={form.id}>
          Not placeholders, so sent as nothing (saving the setting again asks to correct them):
        </EmptyMarks>
      </Message>
    </>
  );
}

/**
 * The placeholders of `kind` in the saved texts, each marked with where it
 * is: those the real email fills with nothing (docs/delivery.md#placeholders),
 * which the sample would not show otherwise. Nothing when there are none.
 */
function EmptyMarks(props: {
  texts: readonly (readonly [string, string | null])[];
  kind: PlaceholderKind;
  formId: string;
  children: ComponentChildren;
}) {
  const found = props.texts.flatMap(([where, text]) =>
    placeholdersIn(text ?? '')
      .filter((use) => use.kind === props.kind)
      .map((use) => ({ where, written: use.written })),
  );
  if (found.length === 0) return null;
  return (
    <p class="empty-placeholders">
      {props.children}{' '}
      {found.map((use, i) => (
        <span key={`${use.where}-${use.written}-${i}`}>
          {i > 0 && ', '}
          <mark>{use.written}</mark> in the {use.where}
        </span>
      ))}
      . <Link to={paths.formTab(props.formId, 'settings')}>Change in Settings</Link>.
    </p>
  );
}

/**
 * The HTML body without its style attributes: the frame inherits the
 * dashboard's Content-Security-Policy (no inline styles), and a preview is
 * not worth loosening it. The template escapes every quote of user text, so
 * only its own attributes match.
 */
const withoutInlineStyles = (html: string) => html.replace(/ style="[^"]*"/g, '');

function Message(props: {
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
