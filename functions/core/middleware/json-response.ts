import type { HttpResult } from './api-context.ts';

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}
