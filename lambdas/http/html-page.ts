import { html, type SafeHtml } from '#domain/html.ts';

/**
 * The one skeleton of every page the service writes (the hosted form, the
 * answers to a post): doctype, language, charset, a viewport for phones,
 * the title, then what the page adds to its head and its body. Built with
 * `html`, so the title and anything interpolated is escaped.
 */
export function htmlPage(page: { title: string; head: SafeHtml; body: SafeHtml }): string {
  return `${html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
${page.head}
</head>
<body>
${page.body}
</body>
</html>
`}`;
}
