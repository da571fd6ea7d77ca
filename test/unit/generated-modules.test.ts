import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { APP_ASSETS } from '#http/app/assets.generated.ts';
import { buildApp } from '#lib/app/build-app.ts';
import { CLIENT_ROUTES, clientRoutesModule, groupModules } from '#lib/routes/route-groups.ts';

const LAMBDAS = new URL('../../lambdas/', import.meta.url);

describe('generated modules are what their sources give now', () => {
  it('every route group’s handler module (npm run routes)', () => {
    for (const [path, text] of groupModules()) {
      expect(readFileSync(new URL(path, LAMBDAS), 'utf8'), `${path} is stale: npm run routes`).toBe(
        text,
      );
    }
  });

  it('the typed client’s route map (npm run routes)', () => {
    expect(
      readFileSync(new URL(CLIENT_ROUTES, LAMBDAS), 'utf8'),
      `${CLIENT_ROUTES} is stale: npm run routes`,
    ).toBe(clientRoutesModule());
  });

  it('the dashboard’s files (npm run app)', () => {
    const built = buildApp().map((asset) => [asset.name, asset.contentType, asset.text]);
    const embedded = APP_ASSETS.map((asset) => [
      asset.name,
      asset.contentType,
      gunzipSync(Buffer.from(asset.gzipBase64, 'base64')).toString('utf8'),
    ]);
    expect(embedded, 'lambdas/http/app/assets.generated.ts is stale: npm run app').toEqual(built);
  });

  it('the dashboard stays within its budget: 60 KB of script a first visit loads and 15 KB of styles, gzipped; 134 KB of script in all', () => {
    const gzipped = new Map<string, number>(
      APP_ASSETS.map((asset) => [asset.name, Buffer.from(asset.gzipBase64, 'base64').length]),
    );
    const text = (name: string) =>
      gunzipSync(
        Buffer.from(APP_ASSETS.find((asset) => asset.name === name)!.gzipBase64, 'base64'),
      ).toString('utf8');
    // A first visit loads the entry and the chunks it imports statically (`from"./chunk-…"`),
    // not those a later screen asks for with import("./chunk-…").
    const entry = APP_ASSETS.find((asset) => /^app-.*\.js$/.test(asset.name))!.name;
    const loaded = new Set<string>();
    const visit = (name: string) => {
      if (loaded.has(name)) return;
      loaded.add(name);
      for (const [, chunk] of text(name).matchAll(/from"\.\/(chunk-[A-Z0-9]+\.js)"/g))
        visit(chunk!);
    };
    visit(entry);
    const sum = (names: Iterable<string>) =>
      [...names].reduce((total, name) => total + gzipped.get(name)!, 0);
    expect(loaded.size).toBeLessThan([...gzipped.keys()].filter((n) => n.endsWith('.js')).length);
    expect(sum(loaded), `first visit: ${[...loaded].join(', ')}`).toBeLessThanOrEqual(60 * 1024);
    // 119.4 KB before issue 41's logic builder (page breaks, rules from menus, the save's checks
    // in the page, Try the form, routing on the Emails screen) took 127.1 KB: none of it on a first visit.
    // Issue 43's confirm by email (the setting, the Waiting for confirmation folder, a
    // submission's state, the summary's Not confirmed) took 128.5 KB (131,585 B) to 130.3 KB (133,457 B).
    expect(sum([...gzipped.keys()].filter((name) => name.endsWith('.js')))).toBeLessThanOrEqual(
      134 * 1024,
    );
    expect(sum([...gzipped.keys()].filter((name) => name.endsWith('.css')))).toBeLessThanOrEqual(
      15 * 1024,
    );
  });
});
