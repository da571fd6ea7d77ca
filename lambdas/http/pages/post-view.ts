import { isbot } from 'isbot';
import { canonicalIp } from '#domain/addresses.ts';
import { ServiceError } from '#domain/errors.ts';
import { isFormKey } from '#domain/ids.ts';
import { windowAt } from '#domain/rate-limit.ts';
import { visitorIdentity } from '#domain/same-visitor.ts';
import { hourOf, VIEWS_PER_VISITOR_PER_MINUTE } from '#domain/summary-counters.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { header, sourceIpOf } from '#http/request.ts';
import { errorJson } from '#http/respond.ts';
import { errorFields, log } from '#log';
import { findFormKey } from '#store/forms.ts';
import { admitRequest, viewVisitorScope } from '#store/rate-limits.ts';
import { addToHour } from '#store/summary-buckets.ts';

/**
 * `POST /f/{key}/views`: the view beacon (docs/analytics.md#summary). The
 * hosted page and the embed send one per page load that shows the form
 * (`navigator.sendBeacon`, no body). It counts in the form's hour bucket,
 * unless the User-Agent is a bot's or the visitor (address and agent) sent
 * 10 this minute already; nothing about the visitor is kept but a hash in a
 * rate window that expires two minutes later, and no cookie is read or set.
 * The answer is 204 either way: a script learns nothing from it.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [{ status: 204, description: 'Counted (or a bot: not counted).', body: null }],
  errors: ['not_found'],
  cors: true,
});

export const handler = publicRoute(contract, async (event) => {
  const key = event.pathParameters?.key;
  const mapping = isFormKey(key) ? await findFormKey(key) : undefined;
  if (!mapping) return errorJson(new ServiceError('not_found', 'No form has this address'));
  const userAgent = header(event, 'user-agent') ?? '';
  if (userAgent !== '' && !isbot(userAgent)) {
    const now = new Date();
    const ip = canonicalIp(sourceIpOf(event) ?? '') ?? '';
    try {
      const counts = await admitRequest(
        viewVisitorScope(mapping.formId, visitorIdentity(ip, userAgent)),
        windowAt(now.getTime(), 60),
        VIEWS_PER_VISITOR_PER_MINUTE,
      );
      if (counts) await addToHour(mapping.formId, hourOf(now.toISOString()), { v: 1 });
    } catch (error) {
      // A lost view (a throttled write of a flooded form) is logged; the page never waits on it.
      log.error('view not counted', { formId: mapping.formId, ...errorFields(error) });
    }
  }
  return { statusCode: 204, headers: {}, body: '' };
});
