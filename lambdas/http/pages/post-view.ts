import { isbot } from 'isbot';
import { isFormKey } from '#domain/ids.ts';
import { hourOf } from '#domain/summary-counters.ts';
import { defineContract } from '#http/contract.ts';
import { CORS_HEADERS } from '#http/cors.ts';
import { header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import { errorBody, json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import { findFormKey } from '#store/forms.ts';
import { addToHour } from '#store/summary-buckets.ts';

/**
 * `POST /f/{key}/views`: the view beacon (docs/api-guide.md#summary). The
 * hosted page and the embed send one per page load that shows the form
 * (`navigator.sendBeacon`, no body). It counts in the form's hour bucket,
 * unless the User-Agent is a bot's; nothing about the visitor is stored and
 * no cookie is read or set.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [{ status: 204, description: 'Counted (or a bot: not counted).', body: null }],
  errors: ['not_found'],
  cors: true,
});

export const handler = withRequestId(async (event) => {
  const key = event.pathParameters?.key;
  const mapping = isFormKey(key) ? await findFormKey(key) : undefined;
  if (!mapping) return json(404, errorBody('not_found', 'No form has this address'), CORS_HEADERS);
  const userAgent = header(event, 'user-agent') ?? '';
  if (userAgent !== '' && !isbot(userAgent)) {
    try {
      await addToHour(mapping.formId, hourOf(new Date().toISOString()), { v: 1 });
    } catch (error) {
      // A lost view (a throttled write of a flooded form) is logged; the page never waits on it.
      log.error('view not counted', { formId: mapping.formId, ...errorFields(error) });
    }
  }
  return { statusCode: 204, headers: CORS_HEADERS, body: '' };
});
