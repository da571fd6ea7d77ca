import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The import graph of lambdas/, read from the source text. */
const ROOT = resolve(import.meta.dirname, '..', '..');
const LAMBDAS = join(ROOT, 'lambdas');
const ALIASES: Record<string, string> = JSON.parse(
  readFileSync(join(ROOT, 'package.json'), 'utf8'),
).imports;

function sourceFiles(dir: string, withTests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' ? [] : sourceFiles(path, withTests);
    const source = entry.name.endsWith('.ts') || entry.name.endsWith('.tsx');
    return source && (withTests || !entry.name.endsWith('.test.ts')) ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;
// A type-only import leaves nothing in a bundle (the typed client names handlers' types).
const VALUE_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

function specifiersOf(file: string, valuesOnly = false): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(valuesOnly ? VALUE_IMPORT : IMPORT)].map((m) => (m[1] ?? m[2])!);
}

/** The file a specifier names inside the repository, or undefined for a package. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(from), specifier);
  if (!specifier.startsWith('#')) return undefined;
  for (const [pattern, target] of Object.entries(ALIASES)) {
    if (pattern === specifier) return join(ROOT, target);
    if (pattern.endsWith('*') && specifier.startsWith(pattern.slice(0, -1))) {
      return join(ROOT, target.slice(0, -1) + specifier.slice(pattern.length - 1));
    }
  }
  throw new Error(`${relative(ROOT, from)}: no package.json import matches ${specifier}`);
}

const files = sourceFiles(LAMBDAS);
const graph = new Map(
  files.map((file) => [
    file,
    specifiersOf(file)
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target): target is string => target !== undefined),
  ]),
);
const name = (file: string) => relative(LAMBDAS, file);

describe('the layers of lambdas/', () => {
  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(80);
    expect(graph.get(join(LAMBDAS, 'http/submit/pipeline.ts'))).toContain(
      join(LAMBDAS, 'store/submissions.ts'),
    );
  });

  it('no import climbs with ../ in lambdas/, lib/, bin/ or test/: each is reached through package.json aliases', () => {
    const everywhere = ['lambdas', 'lib', 'bin', 'test'].flatMap((dir) =>
      sourceFiles(join(ROOT, dir), true),
    );
    expect(everywhere.length).toBeGreaterThan(400);
    const climbing = everywhere.flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => specifier.startsWith('../'))
        .map((specifier) => `${relative(ROOT, file)} → ${specifier}`),
    );
    expect(climbing).toEqual([]);
  });

  it('every import names a file that exists', () => {
    const missing = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => !existsSync(target))
        .map((target) => `${name(file)} → ${relative(ROOT, target)}`),
    );
    expect(missing).toEqual([]);
  });

  it('never imports lib/ (the stack), not even a type: the runtime declares what the stack reads', () => {
    const fromLib = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => target.startsWith(join(ROOT, 'lib')))
        .map((target) => `${name(file)} → ${relative(ROOT, target)}`),
    );
    expect(fromLib).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('domain code imports no AWS SDK and no other layer: it is pure', () => {
    const impure = files
      .filter((file) => name(file).startsWith('domain/'))
      .flatMap((file) =>
        specifiersOf(file)
          .filter(
            (s) => s.startsWith('@aws-sdk/') || (s.startsWith('#') && !s.startsWith('#domain/')),
          )
          .map((s) => `${name(file)} → ${s}`),
      );
    expect(impure).toEqual([]);
  });

  it('only store/ speaks DynamoDB', () => {
    const speakers = files
      .filter((file) =>
        specifiersOf(file).some(
          (s) => s.startsWith('@aws-sdk/client-dynamodb') || s.startsWith('@aws-sdk/lib-dynamodb'),
        ),
      )
      .map(name)
      .filter((file) => !file.startsWith('store/'));
    expect(speakers).toEqual([]);
  });
});

describe('the layer of app/ (the dashboard, run in a browser)', () => {
  const APP = join(ROOT, 'app');
  const reached = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const specifier of specifiersOf(file, true)) {
      const target = resolveSpecifier(file, specifier);
      if (target === undefined) packages.add(specifier);
      else if (existsSync(target)) walk(target);
    }
  };
  for (const file of sourceFiles(APP)) walk(file);
  const outside = (dir: string) =>
    [...reached].filter((file) => file.startsWith(join(ROOT, dir))).map((f) => relative(ROOT, f));

  it('reads the whole dashboard and what it imports', () => {
    expect([...reached].filter((file) => file.startsWith(APP)).length).toBeGreaterThan(40);
    expect(reached).toContain(join(ROOT, 'lambdas/client/client.ts'));
  });

  it('reaches no store, no AWS client and no AWS SDK, not even through another module', () => {
    expect(outside('lambdas/store')).toEqual([]);
    expect(outside('lambdas/aws')).toEqual([]);
    expect([...packages].filter((p) => p.startsWith('@aws-sdk/'))).toEqual([]);
  });
});
