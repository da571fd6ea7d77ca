import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  type BrokenLink,
  brokenLinks,
  githubSlug,
  relativeLinksOf,
} from '#test/support/markdown-links.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const exists = (path: string) => existsSync(join(ROOT, path));

/** README.md and every page of docs/, by repository path. */
function documentation(): Map<string, string> {
  const paths = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return new Map(paths.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
}

const describeBroken = (broken: BrokenLink[]) =>
  broken.map((b) => `${b.from}:${b.line} → ${b.target}: ${b.reason}`).join('\n');

/** TypeScript files of the code folders, for the docs pages their comments cite. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|java)$/.test(entry.name) ? [path] : [];
  });
}

describe('the links of README.md and docs/', () => {
  const pages = documentation();

  it('reads the README and the docs pages, which link to each other', () => {
    expect([...pages.keys()]).toEqual(
      expect.arrayContaining(['README.md', 'docs/api-guide.md', 'docs/getting-started.md']),
    );
    const links = [...pages].flatMap(([path, text]) => relativeLinksOf(path, text));
    expect(links.length).toBeGreaterThan(50);
    expect(links.filter((l) => l.target.includes('#')).length).toBeGreaterThan(20);
  });

  it('every relative link reaches a file, and every #anchor a heading of its page', () => {
    const broken = brokenLinks(pages, exists);
    expect(broken, describeBroken(broken)).toEqual([]);
  });

  it("every docs page cited by the code's comments exists, with the cited heading", () => {
    const citations = ['lambdas', 'lib', 'bin', 'test'].flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/\bdocs\/[\w-]+\.md(?:#[\w-]+)?/g)].map((m) => ({
          file: relative(ROOT, file),
          target: m[0],
        })),
      ),
    );
    const unresolved = citations.filter(({ target }) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const text = pages.get(path);
      return text === undefined || (anchor !== undefined && !anchorsOf(text).has(anchor));
    });
    expect(unresolved.map((c) => `${c.file}: ${c.target}`)).toEqual([]);
  });
});

describe('the link checker', () => {
  const guide = [
    '# Guide',
    '## Processing order',
    '## The `_t` field (fill time)',
    '## Delivery: webhooks and emails',
    '## Notes',
    '## Notes',
    '```md',
    '## Not a heading',
    '[inside a fence](nowhere.md)',
    '```',
    'Code: `[not a link](nowhere.md)`.',
    '[site](https://example.com/x.md) [mail](mailto:a@b.c)',
  ].join('\n');

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Delivery: webhooks and emails')).toBe('delivery-webhooks-and-emails');
    expect(githubSlug('The `_t` field (fill time)')).toBe('the-_t-field-fill-time');
    expect(githubSlug('Direct uploads (files up to `uploadLimitMb`, 100 MB)')).toBe(
      'direct-uploads-files-up-to-uploadlimitmb-100-mb',
    );
    expect(githubSlug('Why **this** one?')).toBe('why-this-one');
    expect([...anchorsOf(guide)]).toEqual([
      'guide',
      'processing-order',
      'the-_t-field-fill-time',
      'delivery-webhooks-and-emails',
      'notes',
      'notes-1',
    ]);
  });

  it('passes links that resolve and ignores fences, code spans and other schemes', () => {
    const pages = new Map([
      ['guide/a.md', guide],
      [
        'README.md',
        '[a](guide/a.md#processing-order) [b](guide/a.md#notes-1) [c](code.ts) [d](#top)\n# Top',
      ],
    ]);
    const files = new Set(['guide/a.md', 'README.md', 'code.ts']);
    expect(brokenLinks(pages, (path) => files.has(path))).toEqual([]);
  });

  it('fails a link to a missing file, a missing heading, or outside the repository', () => {
    const pages = new Map([
      ['guide/a.md', guide],
      [
        'README.md',
        [
          'See [the guide](guide/b.md).',
          'See [order](guide/a.md#procesing-order) and [here](#nowhere).',
          '| [table cell](guide/a.md#notes-2) |',
          '[up](../outside.md)',
        ].join('\n'),
      ],
    ]);
    const files = new Set(['guide/a.md', 'README.md']);
    expect(
      brokenLinks(pages, (path) => files.has(path)).map((b) => [b.line, b.target, b.reason]),
    ).toEqual([
      [1, 'guide/b.md', 'no file guide/b.md'],
      [2, 'guide/a.md#procesing-order', 'no heading #procesing-order in guide/a.md'],
      [2, '#nowhere', 'no heading #nowhere in README.md'],
      [3, 'guide/a.md#notes-2', 'no heading #notes-2 in guide/a.md'],
      [4, '../outside.md', 'leaves the repository'],
    ]);
  });
});
