import { useState } from 'preact/hooks';
import {
  autoReply,
  DEFAULT_AUTOREPLY_BODY,
  DEFAULT_AUTOREPLY_SUBJECT,
  notificationRecipients,
  ownerNotification,
} from '#domain/email-messages.ts';
import { keptAnswers, walk } from '#domain/form-logic.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { routedRecipients } from '#domain/notify-routing.ts';
import { BASE_PATH } from '../base.ts';
import { sampleSubmission } from '../email-sample.ts';
import type { Form } from '../model.ts';
import { EmailEmptyMarks } from '../parts/email-empty-marks.tsx';
import { EmailPreview } from '../parts/email-preview.tsx';
import { EmailRouting, routingFields } from '../parts/email-routing.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { useSession } from '../session.ts';

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
  const [tried, setTried] = useState<Record<string, string>>({});
  const sample = sampleSubmission(form);
  // The answers tried for routing by answer replace the sample's; as on the submit path, only
  // the answers of fields the walk asks are kept (docs/forms.md#the-walk).
  const answers = { ...sample.data, ...tried };
  const submission = { ...sample, data: keptAnswers(form, walk(form, answers), answers) };
  // The worker's own choice of recipients; a member previewing does not know the owner's address.
  const owner = session.role === 'owner' ? session.user.email : 'the team’s owner';
  const routed = routedRecipients(record, submission);
  const { to: recipient, cc } = notificationRecipients(
    form,
    { plan: session.team.plan, ownerEmail: owner },
    routed,
  );
  const notification = {
    ...ownerNotification({
      form: record,
      submission,
      recipient,
      baseUrl: `${window.location.origin}${BASE_PATH}`,
    }),
    cc,
  };
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
      <EmailPreview
        title="Notification to you"
        state={form.notifyEnabled ? 'On' : 'Off: no notification is sent'}
        message={notification}
      >
        <EmailEmptyMarks texts={notificationTexts} kind="unknown" formId={form.id}>
          Not placeholders, so sent as nothing (saving the setting again asks to correct them):
        </EmailEmptyMarks>
        {(form.notifyRules ?? []).length > 0 && (
          <EmailRouting
            form={form}
            fields={routingFields(form)}
            answers={answers}
            routed={routed}
            to={recipient}
            cc={cc}
            pro={session.team.plan === 'pro'}
            onAnswer={(id, value) => setTried({ ...tried, [id]: value })}
          />
        )}
      </EmailPreview>
      <EmailPreview
        title="Auto-reply to the submitter"
        state={form.autoreplyEnabled ? 'On' : 'Off: no auto-reply is sent'}
        message={reply}
      >
        {!form.autoreplyAnswerPlaceholders && (
          <EmailEmptyMarks texts={replyTexts} kind="field" formId={form.id}>
            Empty in the sent reply, because “Let answers fill placeholders in the reply” is off:
          </EmailEmptyMarks>
        )}
        <EmailEmptyMarks texts={replyTexts} kind="unknown" formId={form.id}>
          Not placeholders, so sent as nothing (saving the setting again asks to correct them):
        </EmailEmptyMarks>
      </EmailPreview>
    </>
  );
}
