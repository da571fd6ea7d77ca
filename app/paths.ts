import type { Folder, SpamReason } from './model.ts';

/**
 * Every app path the dashboard links to or navigates to is built here, one
 * function a place: a screen never spells another screen's URL, and the
 * route table (`app/routes.tsx`) matches what these build.
 */

/** The tabs of a form's workspace, in their order: docs/dashboard.md#a-forms-workspace. */
export const FORM_TABS = [
  'inbox',
  'summary',
  'share',
  'settings',
  'fields',
  'design',
  'emails',
  'webhook',
  'integrations',
] as const;
export type FormTab = (typeof FORM_TABS)[number];

export const DEFAULT_PAGE_SIZE = 15;

/** Where an inbox stands: its folder (and spam reason), page and size, and the search, each left out when default. */
export interface InboxPlace {
  folder?: Folder;
  /** The spam folder narrowed to one spam reason (docs/dashboard.md#the-inbox). */
  reason?: SpamReason;
  page?: number;
  pageSize?: number;
  q?: string;
}

function withQuery(path: string, place: InboxPlace): string {
  const query = new URLSearchParams();
  if (place.folder && place.folder !== 'all') query.set('folder', place.folder);
  if (place.reason && place.folder === 'spam') query.set('reason', place.reason);
  if (place.page && place.page !== 1) query.set('page', String(place.page));
  if (place.pageSize && place.pageSize !== DEFAULT_PAGE_SIZE)
    query.set('pageSize', String(place.pageSize));
  if (place.q) query.set('q', place.q);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

const REASONS: readonly SpamReason[] = ['links', 'duplicate', 'moved'];

/** The spam reason an inbox URL narrows spam to: only in the spam folder, only a known one. */
export function reasonOf(query: URLSearchParams, folder: Folder): SpamReason | undefined {
  const reason = query.get('reason') as SpamReason;
  return folder === 'spam' && REASONS.includes(reason) ? reason : undefined;
}

export const paths = {
  forms: () => '/',
  team: () => '/team',
  /** The team's Privacy screen: a person's submissions by email, visitor addresses. */
  teamPrivacy: () => '/team/privacy',
  signIn: () => '/sign-in',
  /** A form's inbox: its folder, page and size, or a search. */
  inbox: (formId: string, place: InboxPlace = {}) =>
    withQuery(`/forms/${encodeURIComponent(formId)}`, place),
  /** One submission, remembering the inbox place it was opened from (its back link returns there). */
  submission: (formId: string, submissionId: string, place: InboxPlace = {}) =>
    withQuery(
      `/forms/${encodeURIComponent(formId)}/submissions/${encodeURIComponent(submissionId)}`,
      { ...place, q: undefined },
    ),
  /** A tab of a form's workspace. */
  formTab: (formId: string, tab: FormTab) =>
    tab === 'inbox' ? paths.inbox(formId) : `/forms/${encodeURIComponent(formId)}/${tab}`,
  /** The summary over a range of days. */
  summary: (formId: string, range: { from: string; to: string }) =>
    `${paths.formTab(formId, 'summary')}?${new URLSearchParams(range)}`,
};
