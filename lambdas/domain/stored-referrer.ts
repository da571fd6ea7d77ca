/**
 * The page a submission came from, as stored in `meta.referrer`
 * (docs/submit.md#decisions). The hosted page posts to its own origin,
 * so the browser sends its whole address, query included: the query of a
 * hosted page is its prefill (`/f/KEY?customer=c-42`), answers the walk may
 * have dropped, so it is cut there. Another site's page arrives as its
 * origin alone (the browser's default on a cross-origin post) or as its
 * owner chose to send it.
 */
const HOSTED_PAGE = /\/f\/[^/]+\/?$/;

export function storedReferrer(referer: string, max: number): string {
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return referer.slice(0, max);
  }
  if (!HOSTED_PAGE.test(url.pathname)) return referer.slice(0, max);
  return `${url.origin}${url.pathname}`.slice(0, max);
}
