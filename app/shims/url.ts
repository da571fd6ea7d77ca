/**
 * `node:url`'s domainToASCII for the browser build (the email templates
 * the emails screen previews check addresses with it): the URL parser's
 * own IDNA, '' for what is not a domain, as Node answers.
 */
export function domainToASCII(domain: string): string {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return '';
  }
}
