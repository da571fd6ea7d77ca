import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { invalidRequest, ServiceError } from '#domain/errors.ts';
import { parseWellFormedJson } from '#domain/well-formed-json.ts';
import { bodyBytes, header } from '#http/request.ts';
import type { HttpResponse } from '#http/respond.ts';

/** Management bodies are small settings objects; the largest (1,000 blocked IPs) is ~50 KB. */
export const MAX_MANAGEMENT_BODY_BYTES = 256 * 1024;

/**
 * Parses a JSON body into `context.body`, every string well formed; wrong
 * type → 415, bad JSON → 400.
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEvent, HttpResponse, Error> {
  return {
    before: (request) => {
      const bytes = bodyBytes(request.event);
      const context = request.context as unknown as { body: unknown };
      if (bytes.length === 0) {
        context.body = undefined;
        return;
      }
      if (bytes.length > MAX_MANAGEMENT_BODY_BYTES) {
        throw new ServiceError('payload_too_large', 'The request body is larger than 256 KB');
      }
      const type = header(request.event, 'content-type');
      if (type && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
        throw new ServiceError('unsupported_media_type', 'Send the body as application/json');
      }
      try {
        context.body = parseWellFormedJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      } catch {
        throw invalidRequest('The request body is not valid JSON');
      }
    },
  };
}
