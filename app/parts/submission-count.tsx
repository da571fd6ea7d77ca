/**
 * The one way every screen says how many submissions a form holds: the
 * submissions (neither spam nor test) and, named apart, the tests, so the
 * forms list, the inbox and the summary say the same thing
 * (docs/dashboard.md#counts).
 */
export function submissionsAndTests(submissions: number, tests: number): string {
  const plural = (n: number, one: string) => `${n.toLocaleString()} ${one}${n === 1 ? '' : 's'}`;
  const said = plural(submissions, 'submission');
  return tests > 0 ? `${said} + ${plural(tests, 'test')}` : said;
}
