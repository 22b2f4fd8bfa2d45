import type { HttpResult } from './api-context.ts';

/**
 * An operation's answer as HTTP: JSON, unless the operation names another content type for a text body
 * it made itself (a calendar feed).
 */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResult {
  const type = headers['content-type'];
  if (typeof body === 'string' && type !== undefined && !type.startsWith('application/json'))
    return { statusCode: status, headers, body };
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}
