import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFunction } from '#lib/bundling.ts';

/**
 * The stack's build (lib/bundling.ts, run by every function's afterBundling
 * hook) splits what a handler loads with import() into chunks: submit's S3
 * client is not read by a cold start that does not need it.
 */
describe('function bundles', () => {
  it('keep submit’s S3 client out of what a cold start reads, and still load', async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'form-service-split-'));
    const entry = join(import.meta.dirname, '..', '..', 'lambdas', 'http', 'submit', 'submit.ts');
    const bundle = await bundleFunction(entry, outdir, { sourceMap: true });
    const files = await readdir(outdir);
    expect(files).toContain('index.mjs');
    expect(files).toContain('index.mjs.map');
    expect(files.some((file) => /^chunk-[A-Z0-9]+\.mjs$/.test(file))).toBe(true);
    expect(bundle.startupBytes).toBeLessThan(bundle.totalBytes - 100_000);

    // Whatever index.mjs imports statically, transitively, never names an S3 command.
    const seen = new Set<string>();
    const visit = async (file: string): Promise<string> => {
      if (seen.has(file)) return '';
      seen.add(file);
      const text = await readFile(join(outdir, file), 'utf8');
      const statics = [
        ...text.matchAll(/(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?"\.\/([^"]+)"/g),
      ];
      let all = text.replace(/import\("\.\/[^"]+"\)/g, '');
      for (const [, next] of statics) all += await visit(next!);
      return all;
    };
    const startup = await visit('index.mjs');
    expect(seen.size, 'index.mjs imports chunks statically').toBeGreaterThan(1);
    // Operation names survive minification; class names do not.
    expect(startup.includes('"TransactWriteItems"')).toBe(true);
    expect(startup.includes('"PutObject"')).toBe(false);
    const everything = (
      await Promise.all(
        files.filter((f) => f.endsWith('.mjs')).map((f) => readFile(join(outdir, f), 'utf8')),
      )
    ).join('');
    expect(everything.includes('"PutObject"')).toBe(true);

    const loaded = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(bundle.file)}); console.log(typeof m.handler);`,
      ],
      { env: { ...process.env, TABLE_NAME: 'bench', UPLOADS_BUCKET: 'bench' } },
    );
    expect(loaded.toString().trim()).toBe('function');
  }, 60_000);
});
