import { browserOf, countryName, deviceWords } from '../answers.ts';
import type { Form, Submission } from '../model.ts';
import { endedOnWords } from '../submission-model.ts';

/**
 * Where a submission came from: when, the country, the device and browser,
 * the page, the IP, and for a form with steps the step it was sent from.
 */
export function SubmissionOrigin(props: {
  submission: Submission;
  dontStoreIp: boolean;
  pages: Form['pages'];
}) {
  const { meta, createdAt } = props.submission;
  const device = deviceWords(meta.deviceClass);
  const step = endedOnWords(meta.endedOn, props.pages);
  return (
    <section aria-labelledby="meta-title">
      <h2 id="meta-title">Where it came from</h2>
      <dl class="meta">
        <dt>Received</dt>
        <dd>{new Date(createdAt).toLocaleString()}</dd>
        {meta.country && (
          <>
            <dt>Country</dt>
            <dd>{countryName(meta.country)}</dd>
          </>
        )}
        {device && (
          <>
            <dt>Device</dt>
            <dd>{device}</dd>
          </>
        )}
        {meta.userAgent && (
          <>
            <dt>Browser</dt>
            <dd title={meta.userAgent}>{browserOf(meta.userAgent)}</dd>
          </>
        )}
        <dt>Page</dt>
        <dd>{meta.referrer || '(not sent)'}</dd>
        <dt>IP address</dt>
        <dd>{meta.ip ?? (props.dontStoreIp ? '(not kept for this form)' : '(unknown)')}</dd>
        {step && (
          <>
            <dt>Sent from</dt>
            <dd>{step}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
