import { posix } from 'node:path';

/**
 * The relative links of markdown pages, and which of them point nowhere: a
 * file that does not exist, or a `#anchor` that no heading of the target
 * page produces under GitHub's slug rules. Pure: pages come in as text by
 * repository path, and `exists` says whether a repository path is a file or
 * folder, so a test can feed it pages that are not on disk.
 */

export interface Link {
  /** The page the link is on, as a repository path (`docs/api-guide.md`). */
  from: string;
  line: number;
  target: string;
}

export interface BrokenLink extends Link {
  reason: string;
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
      return;
    }
    if (fence === null) lines.push({ line: index + 1, text: raw });
  });
  return lines;
}

/** Code spans hold no links: their text is kept (headings slug it), their backticks go. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)(.+?)\1/g, (_, _ticks, code: string) => code.replace(/[[\]()]/g, ' '));
}

/**
 * GitHub's anchor for a heading's text (github-slugger): lower-cased, every
 * character that is not a letter, mark, number, connector (`_`), hyphen or
 * space removed, each space turned into a hyphen. Markdown inside the
 * heading counts as the text it renders to.
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\*+/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' slugs, repeats numbered `-1`, `-2`… as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const INLINE_LINK =
  /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/;

/** The links of a page that stay inside the repository (no scheme, not protocol-relative). */
export function relativeLinksOf(from: string, text: string): Link[] {
  const links: Link[] = [];
  for (const { line, text: raw } of proseLines(text)) {
    const prose = withoutCodeSpans(raw);
    const targets = [...prose.matchAll(INLINE_LINK)].map((m) => m[1] ?? '');
    const definition = REFERENCE_DEFINITION.exec(prose)?.[1];
    if (definition) targets.push(definition);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      links.push({ from, line, target });
    }
  }
  return links;
}

/**
 * The links among `pages` (repository path → markdown text) that resolve to
 * nothing. A path is resolved from the linking page's folder (`/` from the
 * repository root); an anchor must be a heading of the target, which must
 * then be one of `pages`.
 */
export function brokenLinks(
  pages: ReadonlyMap<string, string>,
  exists: (path: string) => boolean,
): BrokenLink[] {
  const anchors = new Map([...pages].map(([path, text]) => [path, anchorsOf(text)]));
  const broken: BrokenLink[] = [];
  for (const [from, text] of pages) {
    for (const link of relativeLinksOf(from, text)) {
      const hash = link.target.indexOf('#');
      const rawPath = hash === -1 ? link.target : link.target.slice(0, hash);
      const anchor = hash === -1 ? null : decodeURIComponent(link.target.slice(hash + 1));
      const path =
        rawPath === ''
          ? from
          : posix.normalize(
              rawPath.startsWith('/')
                ? rawPath.slice(1)
                : posix.join(posix.dirname(from), decodeURIComponent(rawPath)),
            );
      if (path.startsWith('../') || path === '..') {
        broken.push({ ...link, reason: 'leaves the repository' });
      } else if (rawPath !== '' && !exists(path)) {
        broken.push({ ...link, reason: `no file ${path}` });
      } else if (anchor !== null) {
        const offered = anchors.get(path);
        if (!offered) broken.push({ ...link, reason: `${path} is not a checked markdown page` });
        else if (!offered.has(anchor))
          broken.push({ ...link, reason: `no heading #${anchor} in ${path}` });
      }
    }
  }
  return broken;
}
