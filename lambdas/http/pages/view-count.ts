import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isbot } from 'isbot';
import { canonicalIp } from '#domain/addresses.ts';
import {
  checkStepOfForm,
  type FunnelStep,
  STEP_BEACONS_PER_VISITOR_PER_MINUTE,
  stepCounter,
} from '#domain/funnel.ts';
import { isFormKey } from '#domain/ids.ts';
import { windowAt } from '#domain/rate-limit.ts';
import { visitorIdentity } from '#domain/same-visitor.ts';
import { type Counters, hourOf, VIEWS_PER_VISITOR_PER_MINUTE } from '#domain/summary-counters.ts';
import { header, sourceIpOf } from '#http/request.ts';
import { errorFields, log } from '#log';
import { findFormKey, formPageCount } from '#store/forms.ts';
import { admitRequest, stepVisitorScope, viewVisitorScope } from '#store/rate-limits.ts';
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
  const formId = await formIdOf(event);
  if (!formId) return false;
  await countOnce(event, formId, {
    scope: viewVisitorScope,
    limit: VIEWS_PER_VISITOR_PER_MINUTE,
    counters: { v: 1 },
    what: 'view',
  });
  return true;
}

/**
 * A step beacon (`POST /f/{key}/views?reached=…`, docs/analytics.md#the-funnel):
 * the view rules, with a budget of 10 a minute of its own. A page number is
 * checked against the form's pages first (400 `invalid_request` at
 * `reached` for a page it does not have), so a bot's or a flood's bad
 * beacon is refused like anyone's. False when no form has this key.
 */
export async function countStepOf(event: APIGatewayProxyEvent, step: FunnelStep): Promise<boolean> {
  const formId = await formIdOf(event);
  if (!formId) return false;
  if (step !== 'started') {
    const pages = await formPageCount(formId);
    if (pages === undefined) return false;
    checkStepOfForm(step, pages);
  }
  await countOnce(event, formId, {
    scope: stepVisitorScope,
    limit: STEP_BEACONS_PER_VISITOR_PER_MINUTE,
    counters: { [stepCounter(step)]: 1 },
    what: 'step',
  });
  return true;
}

async function formIdOf(event: APIGatewayProxyEvent): Promise<string | undefined> {
  const key = event.pathParameters?.key;
  return isFormKey(key) ? (await findFormKey(key))?.formId : undefined;
}

/**
 * Adds `counters` to the form's hour unless the visitor is a bot (or has no
 * User-Agent), the request a HEAD, or the visitor past `limit` this minute
 * in `scope`. A failed write is logged: the page never waits on it.
 */
async function countOnce(
  event: APIGatewayProxyEvent,
  formId: string,
  rule: {
    scope: (formId: string, visitor: string) => string;
    limit: number;
    counters: Counters;
    what: string;
  },
): Promise<void> {
  const userAgent = header(event, 'user-agent') ?? '';
  if (userAgent === '' || isbot(userAgent)) return;
  if (event.httpMethod?.toUpperCase() === 'HEAD') return;
  const now = new Date();
  const ip = canonicalIp(sourceIpOf(event) ?? '') ?? '';
  try {
    const counts = await admitRequest(
      rule.scope(formId, visitorIdentity(ip, userAgent)),
      windowAt(now.getTime(), 60),
      rule.limit,
    );
    if (counts) await addToHour(formId, hourOf(now.toISOString()), rule.counters);
  } catch (error) {
    // A lost view (a throttled write of a flooded form) is logged; the page never waits on it.
    log.error(`${rule.what} not counted`, { formId, ...errorFields(error) });
  }
}
