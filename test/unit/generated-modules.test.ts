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

  it('the dashboard stays within its budget: 60 KB of script and 15 KB of styles, gzipped', () => {
    const gzipped = (extension: string) =>
      APP_ASSETS.filter((asset) => asset.name.endsWith(extension)).reduce(
        (sum, asset) => sum + Buffer.from(asset.gzipBase64, 'base64').length,
        0,
      );
    expect(gzipped('.js')).toBeLessThanOrEqual(60 * 1024);
    expect(gzipped('.css')).toBeLessThanOrEqual(15 * 1024);
  });
});
