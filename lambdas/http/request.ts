import type { APIGatewayProxyEvent } from 'aws-lambda';

/** API Gateway keeps header names as sent; HTTP says they are case-insensitive. */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

export function bodyBytes(event: APIGatewayProxyEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded
    ? Buffer.from(event.body, 'base64')
    : Buffer.from(event.body, 'utf8');
}

export function requestIdOf(event: APIGatewayProxyEvent): string {
  return event.requestContext?.requestId ?? 'unknown';
}

/**
 * The caller's address as API Gateway saw it (on an edge-optimized API, the
 * viewer's); never X-Forwarded-For, which the caller writes.
 */
export function sourceIpOf(event: APIGatewayProxyEvent): string | null {
  return event.requestContext?.identity?.sourceIp || null;
}
