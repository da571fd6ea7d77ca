import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { $ZodError } from 'zod/v4/core';
import { invalidRequest, ServiceError } from '#domain/errors.ts';
import { issuesOf } from '#domain/validation-issues.ts';
import { errorJson, type HttpResponse } from '#http/respond.ts';
import { errorFields, log } from '#log';

/**
 * The one place errors become responses: ServiceError keeps its status and
 * code, a zod failure is a 400 with its issues, a timeout is a 503, anything
 * else is a 500 whose body says nothing about the cause (the log has it).
 */
export function errorEnvelope(): MiddlewareObj<APIGatewayProxyEvent, HttpResponse> {
  return {
    onError: (request) => {
      const error = request.error;
      if (error instanceof ServiceError) {
        if (error.status >= 500) log.error('request failed', errorFields(error));
        request.response = errorJson(error);
        return;
      }
      // zod/v4/core's class: a `zod` and a `zod/mini` error are both instances.
      if (error instanceof $ZodError) {
        request.response = errorJson(invalidRequest('The request is not valid', issuesOf(error)));
        return;
      }
      if (error instanceof Error && error.name === 'TimeoutError') {
        // middy ends the handler just before Lambda would: the caller gets an answer, not a 502.
        log.error('request timed out', errorFields(error));
        request.response = errorJson(
          new ServiceError('timeout', 'The request took too long; try again', {
            headers: { 'retry-after': '1' },
          }),
        );
        return;
      }
      log.error('unexpected error', errorFields(error));
      request.response = errorJson(
        new ServiceError('internal_error', 'Something went wrong on our side'),
      );
    },
  };
}
