import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { notFound } from '#domain/errors.ts';
import { misshapenPathId } from '#domain/ids.ts';

/**
 * Path ids of the wrong shape name nothing: `404 not_found` before the
 * handler builds a table key from one (docs/submissions.md#submissions). Runs
 * after authentication, so an anonymous caller still learns only `401`.
 */
export function pathIds<R>(): MiddlewareObj<APIGatewayProxyEvent, R> {
  return {
    before: (request) => {
      const what = misshapenPathId(request.event.pathParameters ?? {});
      if (what) throw notFound(what);
    },
  };
}
