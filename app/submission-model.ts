import type { Delivery, SubmissionPage } from './model.ts';
import { RETRY_WINDOW } from './retry-words.ts';

/**
 * The submission page's model: its neighbours in the folder and its webhook
 * delivery in words (docs/dashboard.md#a-submission). Pure: the list is read
 * through the function given.
 */

/** The submissions before (newer) and after (older) this one in its folder, and its page. */
export interface Neighbours {
  previous?: string;
  next?: string;
  page: number;
}

/** Reads one page of the folder: `around` a submission, or a page by number. */
export type ListPage = (query: {
  around?: string;
  page?: number;
}) => Promise<Pick<SubmissionPage, 'items' | 'page' | 'pageCount'>>;

/**
 * The neighbours of `id` from the page holding it (`around`,
 * docs/submissions.md#folders-and-paging), reading the page before or after
 * only when it stands first or last on its page.
 */
export async function neighbours(id: string, list: ListPage): Promise<Neighbours> {
  const page = await list({ around: id });
  const at = page.items.findIndex((item) => item.id === id);
  if (at < 0) return { page: page.page };
  let previous = page.items[at - 1]?.id;
  let next = page.items[at + 1]?.id;
  if (!previous && page.page > 1) previous = (await list({ page: page.page - 1 })).items.at(-1)?.id;
  if (!next && page.page < page.pageCount)
    next = (await list({ page: page.page + 1 })).items[0]?.id;
  return { previous, next, page: page.page };
}

type Attempt = Delivery['attempts'][number];

/** What the receiver did on an attempt, in words. */
export function attemptWords(attempt: Attempt): string {
  if (attempt.responseStatus !== null) return `it answered ${attempt.responseStatus}`;
  const kind = attempt.error?.split(':')[0];
  if (kind === 'timeout') return 'it did not answer in time';
  if (kind === 'network') return 'it could not be reached';
  if (kind === 'refused_address') return 'its address is not allowed';
  if (kind === 'invalid_url') return 'its address is not https';
  return 'it did not answer';
}

const CANCELLED: Record<NonNullable<Delivery['cancelReason']>, string> = {
  webhook_removed: 'the webhook was disconnected before it was sent',
  integration_removed: 'the integration was disconnected before it was sent',
  plan_not_pro: 'webhooks need the Pro plan',
  submission_deleted: 'the submission was deleted',
  submission_spam: 'the submission was moved to spam',
};

const times = (count: number) => (count === 1 ? '1 attempt' : `${count} attempts`);

/**
 * The delivery of this submission to the form's webhook, as a headline and a
 * line of detail (docs/delivery.md#delivery-statuses).
 */
export function deliveryWords(delivery: Delivery): { status: string; detail: string } {
  const last = delivery.attempts.at(-1);
  const count = delivery.attemptCount;
  switch (delivery.status) {
    case 'pending':
      return {
        status: 'Waiting to be sent',
        detail: count ? `Sent again by hand; ${times(count)} before.` : 'Not tried yet.',
      };
    case 'delivered':
      return {
        status: 'Delivered',
        detail: count <= 1 ? 'On the first attempt.' : `After ${times(count)}.`,
      };
    case 'retrying':
      return {
        status: 'Retrying',
        detail: `${times(count)} so far; ${last ? `on the last, ${attemptWords(last)}` : 'none answered'}. It is tried again for ${RETRY_WINDOW}.`,
      };
    case 'failed':
      return {
        status: 'Failed',
        detail: `${times(count)}; ${last ? `on the last, ${attemptWords(last)}` : 'none was made'}. It is not tried again unless you retry it.`,
      };
    case 'cancelled':
      return {
        status: 'Not sent',
        detail: delivery.cancelReason
          ? `Not sent because ${CANCELLED[delivery.cancelReason]}.`
          : 'Not sent.',
      };
  }
}

/**
 * Which step a submission was sent from (docs/dashboard.md#a-submission), for
 * a form with steps: "Step 2 of 3: Contact" by the form's pages now;
 * undefined for a form without steps. A step since taken out is named by
 * its id; a submission from before the form had steps says so.
 */
export function endedOnWords(
  endedOn: string | undefined,
  pages: readonly { id: string; title?: string }[] | null | undefined,
): string | undefined {
  if (!pages || pages.length === 0) {
    return endedOn ? `A step no longer in the form (${endedOn})` : undefined;
  }
  if (!endedOn) return 'Not recorded (sent before the form had steps)';
  const at = pages.findIndex((page) => page.id === endedOn);
  if (at < 0) return `A step no longer in the form (${endedOn})`;
  const title = pages[at]!.title?.trim();
  return `Step ${at + 1} of ${pages.length}${title ? `: ${title}` : ''}`;
}
