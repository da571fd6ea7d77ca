import { gunzipSync } from 'node:zlib';
import { EMBED_GZIP_BASE64 } from './embed-script.generated.ts';

/** The client script as served (the generated module holds it gzipped). */
export function embedScript(): string {
  return gunzipSync(Buffer.from(EMBED_GZIP_BASE64, 'base64')).toString('utf8');
}
