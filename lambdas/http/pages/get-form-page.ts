import { randomBytes } from 'node:crypto';
import { uploadsPostOrigin } from '#aws/upload-target.ts';
import { ServiceError } from '#domain/errors.ts';
import { prefillValues } from '#domain/prefill.ts';
import { defineContract } from '#http/contract.ts';
import { wantsHtml } from '#http/negotiate.ts';
import { errorPage, PAGE_HEADERS } from '#http/post-answer-pages.ts';
import { publicRoute } from '#http/public-route.ts';
import { header } from '#http/request.ts';
import { errorJson } from '#http/respond.ts';
import { log } from '#log';
import { boundedFormPage, formPageCsp } from './form-page.ts';
import { publicFormByKey } from './public-form-lookup.ts';

/**
 * `GET /f/{key}`: the hosted form page (form-page.ts). Never cached: it
 * carries the fill-time stamp and the form may close at any moment. An
 * unknown key is the submit endpoint's 404 (a page for a browser, else the
 * envelope).
 */
export const contract = defineContract({
  tag: 'Hosted forms',
  answers: [
    {
      status: 200,
      description:
        'The page: the form drawn from its fields and design, or its closed message. `?<field id>=<value>` fills a `hidden` field, or one with `prefill: true`, when the field would take the value (docs/forms.md#hidden-fields-and-prefill).',
      body: { mediaType: 'text/html' },
    },
  ],
  errors: ['not_found'],
  htmlErrors: true,
});

export const handler = publicRoute(contract, async (event) => {
  const found = await publicFormByKey(event.pathParameters?.key, new Date());
  if (!found) {
    const message = 'No form has this address';
    return wantsHtml(header(event, 'accept'))
      ? {
          statusCode: 404,
          headers: PAGE_HEADERS,
          body: errorPage({ status: 404, title: 'Form not found', message }),
        }
      : errorJson(new ServiceError('not_found', message));
  }
  const nonce = randomBytes(18).toString('base64');
  const base = event.path?.endsWith('/') ? '../../' : '../';
  // `?field=value` fills hidden and prefill fields (docs/forms.md#hidden-fields-and-prefill).
  const prefill = prefillValues(found.view.fields, event.multiValueQueryStringParameters ?? {});
  const body = boundedFormPage(found.view, { base, nonce, prefill });
  if (body === undefined) {
    log.warn('form page too large', { key: found.view.key });
    return {
      statusCode: 500,
      headers: PAGE_HEADERS,
      body: errorPage({
        status: 500,
        title: 'This form cannot be shown',
        message: 'Its fields are too large for one page.',
      }),
    };
  }
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': formPageCsp(
        found.view,
        found.allowedOrigins,
        nonce,
        // The script posts files straight to the uploads bucket.
        found.view.multipart ? uploadsPostOrigin() : undefined,
      ),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    },
    body,
  };
});
