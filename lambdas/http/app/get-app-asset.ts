import { withRequestId } from '#http/request-id.ts';
import { json } from '#http/respond.ts';
import { appAssets } from './app-assets.ts';

/**
 * `GET /app/assets/{file}`: a built file of the dashboard. Its name holds
 * its content's hash, so browsers and CDNs may keep it a year unchanged.
 */
const inner = withRequestId(async (event) => {
  const asset = appAssets.get(event.pathParameters?.file ?? '');
  if (!asset) return json(404, { ok: false, error: 'not_found', message: 'No such file' });
  return {
    statusCode: 200,
    headers: {
      'content-type': asset.contentType,
      'x-content-type-options': 'nosniff',
    },
    body: asset.body,
  };
});

export const handler: typeof inner = async (event, context) => {
  const response = await inner(event, context);
  // withRequestId marks every answer no-store; a hashed file never changes.
  return response.statusCode === 200
    ? {
        ...response,
        headers: { ...response.headers, 'cache-control': 'public, max-age=31536000, immutable' },
      }
    : response;
};
