import { randomBytes } from 'node:crypto';
import { gatewayTime } from './api-event.ts';
import { LIVE_STAGE } from './environment.ts';

/**
 * API Gateway's connection and request ids look like `L0SM9cOFvHcCIhw=` (11 bytes in base64). '+' and '/'
 * are left out so that an id can sit in a URL path as it is.
 */
export const gatewayId = () =>
  randomBytes(11)
    .toString('base64')
    .replace(/[+/]/g, (c) => (c === '+' ? 'P' : 'S'));

export interface WsConnectionInfo {
  connectionId: string;
  connectedAt: number;
  domainName: string;
  sourceIp: string;
  userAgent: string;
  /** Headers of the upgrade request, names as sent; repeats in multiValueHeaders. */
  rawHeaders: readonly string[];
}

const API_ID = 'local-ws';

function requestContext(
  c: WsConnectionInfo,
  routeKey: string,
  eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
  now: Date,
) {
  const requestId = gatewayId();
  return {
    routeKey,
    eventType,
    extendedRequestId: requestId,
    requestTime: gatewayTime(now),
    messageDirection: 'IN',
    stage: LIVE_STAGE,
    connectedAt: c.connectedAt,
    requestTimeEpoch: now.getTime(),
    identity: { sourceIp: c.sourceIp, userAgent: c.userAgent },
    requestId,
    domainName: c.domainName,
    connectionId: c.connectionId,
    apiId: API_ID,
  };
}

function headerMaps(rawHeaders: readonly string[]) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const value = rawHeaders[i + 1] as string;
    const existing =
      Object.keys(multiValueHeaders).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
    headers[existing] = value;
    multiValueHeaders[existing] = [...(multiValueHeaders[existing] ?? []), value];
  }
  return { headers, multiValueHeaders };
}

export function connectEvent(c: WsConnectionInfo, search: URLSearchParams, now = new Date()) {
  // From maps, so a parameter named `constructor` or `__proto__` is a parameter like any other.
  const keys = [...new Set(search.keys())];
  const queryStringParameters = Object.fromEntries(keys.map((k) => [k, search.getAll(k).at(-1) ?? '']));
  const multiValueQueryStringParameters = Object.fromEntries(keys.map((k) => [k, search.getAll(k)]));
  const hasQuery = keys.length > 0;
  return {
    ...headerMaps(c.rawHeaders),
    ...(hasQuery ? { queryStringParameters, multiValueQueryStringParameters } : {}),
    requestContext: requestContext(c, '$connect', 'CONNECT', now),
    isBase64Encoded: false,
  };
}

export function messageEvent(
  c: WsConnectionInfo,
  routeKey: string,
  data: Buffer,
  binary: boolean,
  now = new Date(),
) {
  return {
    requestContext: { ...requestContext(c, routeKey, 'MESSAGE', now), messageId: gatewayId() },
    body: binary ? data.toString('base64') : data.toString('utf8'),
    isBase64Encoded: binary,
  };
}

export function disconnectEvent(c: WsConnectionInfo, code: number, reason: string, now = new Date()) {
  return {
    ...headerMaps(c.rawHeaders),
    requestContext: {
      ...requestContext(c, '$disconnect', 'DISCONNECT', now),
      disconnectStatusCode: code,
      disconnectReason: reason,
    },
    isBase64Encoded: false,
  };
}

/** Route selection on `$request.body.action`: a declared route key, else `$default`. */
export function selectRoute(data: Buffer, binary: boolean, routeKeys: ReadonlySet<string>): string {
  if (binary) return '$default';
  try {
    const action = (JSON.parse(data.toString('utf8')) as { action?: unknown } | null)?.action;
    if (typeof action === 'string' && routeKeys.has(action) && !action.startsWith('$')) return action;
  } catch {
    // Not JSON: the default route takes it, as API Gateway does.
  }
  return '$default';
}
