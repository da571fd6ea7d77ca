import { emailHash } from '#domain/email-index.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import { countInto, emptyRecount } from '#domain/summary-counters.ts';
import { getForm } from '#store/forms.ts';
import { replaceRollups, submissionsOldestFirst } from '#store/summary-buckets.ts';

/**
 * `summary rebuild`: a form's summary rollups recounted from its stored
 * submissions (docs/analytics.md#summary), for a form older than the
 * summary or to check exactness. Views and dropped posts are kept as they
 * are; submissions deleted before the rebuild are no longer counted. A
 * waitlist's signup marks are written keyed with `secret` (older unkeyed
 * marks go). The table must be configured before this module is imported.
 */
export async function rebuildSummary(formId: string, secret: string) {
  const form = await getForm(formId);
  if (!form) return undefined;
  const recount = emptyRecount();
  let submissions = 0;
  for await (const { submission, hints, signupHash } of submissionsOldestFirst(formId)) {
    // A signup's sender by the keyed hash of its address, as the submit path stores it
    // (docs/privacy.md#the-signup-mark); made here for a submission stored before that.
    const address =
      form.type === 'waitlist' && !signupHash
        ? submitterAddress(submission, form, hints)
        : undefined;
    const email = signupHash ?? (address && emailHash(secret, form.teamId, address));
    countInto(recount, { submission, email }, form);
    submissions += 1;
  }
  return { formId, submissions, ...(await replaceRollups(formId, recount)) };
}
