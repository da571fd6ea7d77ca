import { gunzipSync } from 'node:zlib';
import { APP_ASSETS } from './assets.generated.ts';

/** One built file of the dashboard, as served. */
export interface AppAsset {
  name: string;
  contentType: string;
  body: string;
}

/** The dashboard's files by name (unzipped once per container). */
export const appAssets: ReadonlyMap<string, AppAsset> = new Map(
  APP_ASSETS.map((asset) => [
    asset.name,
    {
      name: asset.name,
      contentType: asset.contentType,
      body: gunzipSync(Buffer.from(asset.gzipBase64, 'base64')).toString('utf8'),
    },
  ]),
);

const named = (extension: string) =>
  [...appAssets.keys()].find((name) => name.startsWith('app-') && name.endsWith(extension)) ?? '';

/** The script and stylesheet the shell names (chunks are imported by the script). */
export const APP_SCRIPT = named('.js');
export const APP_STYLES = named('.css');
