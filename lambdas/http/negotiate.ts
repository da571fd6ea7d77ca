/**
 * Whether the caller wants an HTML page rather than JSON
 * (docs/submit.md#answers: an `Accept` that names `text/html` gets a page).
 *
 * Only an explicit `text/html` media range counts, case-insensitive, and not
 * when its `q` is 0 (RFC 9110: "not acceptable"). Wildcard ranges do not:
 * `fetch` sends the any-type range alone and expects JSON, while every
 * browser navigation names `text/html`. Following the spec, a listed
 * `text/html` wins even when another type has a higher weight. A malformed
 * `q` counts as the default 1, as the range was still named.
 */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [mediaType = '', ...parameters] = range.split(';');
    if (mediaType.trim().toLowerCase() !== 'text/html') return false;
    return weightOf(parameters) > 0;
  });
}

function weightOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const weight = Number(value.trim());
    return value.trim() === '' || Number.isNaN(weight) ? 1 : weight;
  }
  return 1;
}
