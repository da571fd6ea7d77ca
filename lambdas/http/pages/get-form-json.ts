import { ServiceError } from '#domain/errors.ts';
import { originAllowed } from '#domain/visitor.ts';
import { defineContract } from '#http/contract.ts';
import { publicRoute } from '#http/public-route.ts';
import { header } from '#http/request.ts';
import { errorJson, json } from '#http/respond.ts';
import { publicFormByKey } from './public-form-lookup.ts';

/**
 * `GET /f/{key}/form.json`: what the embed draws (`PublicForm`: fields,
 * design, closed message, captcha site key; never a secret, an address or a
 * block list). Any website may read the answer (CORS `*`), but like the
 * submit endpoint (step 3) a form with `allowedOrigins` answers only to
 * those websites (`Origin`, else the `Referer`'s origin): 403
 * `origin_not_allowed` elsewhere, so the embed shows the refusal instead of
 * a form whose posts would all be refused.
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [{ status: 200, description: 'The form’s public settings.', body: 'PublicForm' }],
  errors: ['origin_not_allowed', 'not_found'],
  cors: true,
});

export const handler = publicRoute(contract, async (event) => {
  const found = await publicFormByKey(event.pathParameters?.key, new Date());
  if (!found) return errorJson(new ServiceError('not_found', 'No form has this address'));
  if (!originAllowed(found.allowedOrigins, header(event, 'origin'), header(event, 'referer'))) {
    return errorJson(new ServiceError('origin_not_allowed', 'This website may not show this form'));
  }
  return json(200, found.view);
});
