/**
 * Page arithmetic of a submission list, apart from the query schema
 * (submission-list.ts, with zod), so the store and every function that reads
 * a folder do not bundle zod.
 */

export interface PageWindow {
  page: number;
  pageCount: number;
  /** Submissions before the page, newest first. */
  skip: number;
}

/** A page past the end is the last page; an empty folder still has one (empty) page. */
export function pageWindow(total: number, pageSize: number, requestedPage: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  return { page, pageCount, skip: (page - 1) * pageSize };
}

/** The page holding the submission at 0-based `position` of the newest-first list. */
export function pageHolding(position: number, pageSize: number): number {
  return Math.floor(position / pageSize) + 1;
}
