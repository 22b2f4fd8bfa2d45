import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { LOCAL_ACCOUNT } from './environment.ts';

/** What the gateway knows about one HTTP request once its body is read. */
export interface GatewayRequest {
  method: string;
  /** Path and query exactly as sent, e.g. `/api/assets?limit=5`. */
  url: string;
  httpVersion: string;
  /** Node's rawHeaders: names and values alternating, repeats kept. */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
  requestId: string;
  now: Date;
}

export interface ApiRoute {
  /** `ANY /api/<prefix>` or `ANY /api/<prefix>/{proxy+}`. */
  routeKey: string;
  /** What `{proxy+}` matched, decoded; absent for the route without it. */
  proxy?: string;
}

const API_ID = 'local';
const TEXT_TYPES =
  /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|x-www-form-urlencoded))/i;

/** API Gateway's access-log time format, e.g. `12/Mar/2020:19:03:58 +0000`. */
export function gatewayTime(now: Date): string {
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(now.getUTCDate())}/${months[now.getUTCMonth()]}/${now.getUTCFullYear()}:${pad(
    now.getUTCHours(),
  )}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} +0000`;
}

/** Form-style decoding, as API Gateway decodes query strings ('+' is a space). */
function decodeQueryPart(part: string): string {
  const spaced = part.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Repeated keys are joined with commas, as payload format 2.0 does. */
export function queryParameters(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  // A map, so a parameter named `constructor` or `__proto__` is a parameter like any other.
  const out = new Map<string, string>();
  for (const pair of rawQueryString.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeQueryPart(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeQueryPart(pair.slice(eq + 1));
    const before = out.get(key);
    out.set(key, before === undefined ? value : `${before},${value}`);
  }
  return out.size > 0 ? Object.fromEntries(out) : undefined;
}

/**
 * Lower-cased headers, repeats joined with commas; cookies leave the headers for the `cookies` array,
 * as payload format 2.0 does.
 */
export function headersAndCookies(rawHeaders: readonly string[]): {
  headers: Record<string, string>;
  cookies: string[];
} {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    const value = rawHeaders[i + 1] as string;
    if (name === 'cookie') {
      for (const c of value.split(';')) if (c.trim() !== '') cookies.push(c.trim());
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  return { headers, cookies };
}

export const isTextContentType = (type: string | undefined) => type === undefined || TEXT_TYPES.test(type);

/** The event an API Gateway HTTP API (payload format 2.0) passes to a Lambda integration. */
export function apiGatewayEvent(req: GatewayRequest, route: ApiRoute): APIGatewayProxyEventV2 {
  const q = req.url.indexOf('?');
  const rawPath = q === -1 ? req.url : req.url.slice(0, q);
  const rawQueryString = q === -1 ? '' : req.url.slice(q + 1);
  const { headers, cookies } = headersAndCookies(req.rawHeaders);
  const domainName = (headers.host ?? 'localhost').split(':')[0] ?? 'localhost';
  const hasBody = req.body.byteLength > 0;
  const binary = hasBody && !isTextContentType(headers['content-type']);
  const queryStringParameters = queryParameters(rawQueryString);
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId: API_ID,
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: req.method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: req.requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: gatewayTime(req.now),
      timeEpoch: req.now.getTime(),
    },
    ...(hasBody ? { body: binary ? req.body.toString('base64') : req.body.toString('utf8') } : {}),
    ...(route.proxy !== undefined ? { pathParameters: { proxy: route.proxy } } : {}),
    isBase64Encoded: binary,
  };
}

export interface GatewayResponse {
  statusCode: number;
  /** Header pairs; Set-Cookie may repeat. */
  headers: [string, string][];
  body: Buffer;
}

const jsonError = (statusCode: number, message: string): GatewayResponse => ({
  statusCode,
  headers: [['content-type', 'application/json']],
  body: Buffer.from(JSON.stringify({ message })),
});

export const gatewayErrors = {
  internal: () => jsonError(500, 'Internal Server Error'),
  unavailable: () => jsonError(503, 'Service Unavailable'),
  tooLarge: () => jsonError(413, 'Request Entity Too Large'),
  notFound: () => jsonError(404, 'Not Found'),
};

/**
 * Maps a handler's result back as the gateway does for payload format 2.0: a result without a
 * statusCode is taken as a JSON body with status 200.
 */
export function gatewayResponse(result: unknown): GatewayResponse {
  const structured =
    result !== null && typeof result === 'object' && 'statusCode' in result
      ? (result as {
          statusCode: unknown;
          headers?: Record<string, unknown>;
          body?: unknown;
          isBase64Encoded?: unknown;
          cookies?: unknown;
        })
      : undefined;
  if (!structured) {
    if (result === undefined || result === null)
      return { statusCode: 200, headers: [], body: Buffer.alloc(0) };
    const body = typeof result === 'string' ? result : JSON.stringify(result);
    return { statusCode: 200, headers: [['content-type', 'application/json']], body: Buffer.from(body) };
  }
  const statusCode = Number(structured.statusCode);
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) return gatewayErrors.internal();
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(structured.headers ?? {})) {
    if (value !== undefined && value !== null) headers.push([name, String(value)]);
  }
  if (Array.isArray(structured.cookies)) {
    for (const c of structured.cookies) headers.push(['set-cookie', String(c)]);
  }
  const raw = structured.body;
  const text = raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
  const body = structured.isBase64Encoded === true ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  return { statusCode, headers, body };
}
