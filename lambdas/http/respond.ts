import type { APIGatewayProxyResult } from 'aws-lambda';

export type HttpResponse = APIGatewayProxyResult;

export function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function errorBody(code: string, message: string, issues?: unknown[]) {
  return issues ? { ok: false, error: code, message, issues } : { ok: false, error: code, message };
}
