import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ServiceError } from '#domain/errors.ts';
import { errorJson, type HttpResponse } from './respond.ts';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<HttpResponse>;

/**
 * The handler of a group's function (routes.ts `group`): picks the route by
 * method and resource template and loads its handler module on first use
 * (each is its own chunk, so a cold start reads only the route it serves).
 */
export function routeDispatcher(table: Record<string, () => Promise<{ handler: Handler }>>) {
  const loaded = new Map<string, Promise<Handler>>();
  return async (event: APIGatewayProxyEvent, context: Context): Promise<HttpResponse> => {
    const method = event.httpMethod.toUpperCase();
    // A HEAD reaches only routes that answer it (routes.ts answersHead): as their GET.
    const key = `${method === 'HEAD' ? 'GET' : method} ${event.resource}`;
    const load = table[key];
    if (!load) {
      // API Gateway sends this function only its routes; anything else is a wiring mistake.
      return errorJson(new ServiceError('not_found', `No route for ${key}`));
    }
    let handler = loaded.get(key);
    if (!handler) {
      handler = load().then((module) => module.handler);
      loaded.set(key, handler);
    }
    return (await handler)(event, context);
  };
}
