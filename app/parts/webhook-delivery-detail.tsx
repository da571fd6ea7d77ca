import { ApiError, call } from '../api.ts';
import { useQuery } from '../data.ts';
import type { DeliveryLogKind } from '../delivery-log.ts';
import type { Delivery } from '../model.ts';
import { answerWords, attemptError, payloadText } from '../webhook-model.ts';
import { Problem } from './feedback.tsx';

/**
 * What a delivery sent and what came back (docs/dashboard.md#screens): the
 * body, rebuilt from the submission (the log keeps no copy of it,
 * docs/delivery.md#delivery-log), and each attempt's answer with the first
 * 1 KB of its body as the log keeps it. Text only: Preact escapes it.
 */
export function DeliveryDetail(props: {
  formId: string;
  kind: DeliveryLogKind;
  delivery: Delivery;
}) {
  const { formId, delivery } = props;
  const sentAt = delivery.attempts.at(-1)?.at ?? delivery.createdAt;
  const Heading = props.kind === 'webhook' ? 'h3' : 'h4';
  return (
    <div class="delivery">
      {props.kind === 'webhook' ? (
        <>
          <Heading>Body sent</Heading>
          <Payload formId={formId} submissionId={delivery.submissionId} sentAt={sentAt} />
          <p class="hint">
            Every attempt carries the same message id, <code>{delivery.webhookId}</code>, in its{' '}
            <code>webhook-id</code> header.
          </p>
        </>
      ) : (
        <p class="hint">
          The message is the submission's answers as the chat shows them; the log keeps each
          attempt's answer, not the message.
        </p>
      )}
      <Heading>Attempts</Heading>
      {delivery.attempts.length === 0 ? (
        <p class="hint">Not sent yet.</p>
      ) : (
        <ol class="attempts">
          {delivery.attempts.map((attempt) => (
            <li key={`${attempt.number}-${attempt.at}`}>
              <p>
                Attempt {attempt.number}, {new Date(attempt.at).toLocaleString()}:{' '}
                {answerWords(attempt)}
              </p>
              {attempt.error && attemptError(attempt.error).detail && (
                <p class="hint">{attemptError(attempt.error).detail}</p>
              )}
              {attempt.responseStatus !== null &&
                (attempt.responseBody ? (
                  <figure>
                    <figcaption>Its answer (the first 1 KB)</figcaption>
                    <Code label={`The answer to attempt ${attempt.number}`}>
                      {attempt.responseBody}
                    </Code>
                  </figure>
                ) : (
                  <p class="hint">Its answer had no body.</p>
                ))}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Payload(props: { formId: string; submissionId: string; sentAt: string }) {
  const { formId, submissionId, sentAt } = props;
  const submission = useQuery(`${formId} ${submissionId}`, (signal) =>
    call('getSubmission', { params: { id: formId, submissionId }, signal }),
  );
  if (submission.error instanceof ApiError && submission.error.status === 404)
    return <p class="hint">The submission was deleted, so the body can no longer be shown.</p>;
  if (submission.error) return <Problem error={submission.error} retry={submission.reload} />;
  if (!submission.data) return <p class="hint">Reading the submission…</p>;
  return (
    <>
      <Code label="The body sent">{payloadText(submission.data, sentAt)}</Code>
      <p class="hint">
        Rebuilt from the submission as it is stored now, with the time of the last attempt: the log
        keeps the answers, not the bytes sent.
      </p>
    </>
  );
}

/** Text shown as sent, wrapped, scrolling past a height: focusable, so a keyboard scrolls it too. */
function Code(props: { label: string; children: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus
    <section class="code" tabIndex={0} aria-label={props.label}>
      <pre>{props.children}</pre>
    </section>
  );
}
