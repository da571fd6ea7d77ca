import { browserOf, countryName, deviceWords } from '../answers.ts';
import type { Submission } from '../model.ts';

/** Where a submission came from: when, the country, the device and browser, the page, the IP. */
export function SubmissionOrigin(props: { submission: Submission; dontStoreIp: boolean }) {
  const { meta, createdAt } = props.submission;
  const device = deviceWords(meta.deviceClass);
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
      </dl>
    </section>
  );
}
