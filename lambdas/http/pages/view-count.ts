import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isbot } from 'isbot';
import { canonicalIp } from '#domain/addresses.ts';
import { isFormKey } from '#domain/ids.ts';
import { windowAt } from '#domain/rate-limit.ts';
import { visitorIdentity } from '#domain/same-visitor.ts';
import { hourOf, VIEWS_PER_VISITOR_PER_MINUTE } from '#domain/summary-counters.ts';
import { header, sourceIpOf } from '#http/request.ts';
import { errorFields, log } from '#log';
import { findFormKey } from '#store/forms.ts';
import { admitRequest, viewVisitorScope } from '#store/rate-limits.ts';
import { addToHour } from '#store/summary-buckets.ts';

/**
 * The view rules (docs/analytics.md#views), one code for both ways a page
 * counts its view: the script's beacon (`POST /f/{key}/views`) and the image
 * of a page without script (`GET /f/{key}/views`, the pasted HTML form). A
 * view counts in the form's hour bucket unless the User-Agent is a bot's (or
 * none) or the visitor (address, an IPv6 one by /64, and agent) sent 10 this
 * minute already; nothing about the visitor is kept but a hash in a rate
 * window that expires two minutes later, and no cookie is read or set.
 * False when no form has this key; a view that could not be written is
 * logged, and the answer is the same. A HEAD (a link checker asking
 * whether the image is there, never a browser showing it) counts nothing.
 */
export async function countViewOf(event: APIGatewayProxyEvent): Promise<boolean> {
  const key = event.pathParameters?.key;
  const mapping = isFormKey(key) ? await findFormKey(key) : undefined;
  if (!mapping) return false;
  const userAgent = header(event, 'user-agent') ?? '';
  if (userAgent === '' || isbot(userAgent)) return true;
  if (event.httpMethod?.toUpperCase() === 'HEAD') return true;
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
  return true;
}
