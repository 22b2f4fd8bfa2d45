import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpFunctionName } from '../../shared/system/functions.ts';
import { routePrefixes } from '../../shared/system/routes.ts';
import { securityHeaders } from '../security-headers.ts';
import {
  type ApiRoute,
  apiGatewayEvent,
  type GatewayResponse,
  gatewayErrors,
  gatewayResponse,
} from './api-event.ts';
import { type ApiThrottle, callerKey, createApiThrottle } from './api-throttle.ts';
import { type FunctionLoad, FunctionTimeoutError, invoke } from './lambda.ts';
import type { Log } from './options.ts';
import { S3_PATH } from './s3-proxy.ts';
import { gatewayId } from './ws-event.ts';
import { WS_PATH, type WsGateway } from './ws-gateway.ts';

/** API Gateway's payload limit for HTTP APIs. */
export const MAX_API_BODY_BYTES = 10 * 1024 * 1024;

type Handle = (req: IncomingMessage, res: ServerResponse) => unknown;

/** What the gateway serves; filled in while the stack starts. Until `ready`, everything but health is 503. */
export interface GatewayParts {
  ready: boolean;
  health: () => { status: number; body: unknown };
  functions?: FunctionLoad;
  ws?: WsGateway;
  s3?: Handle;
  oidc?: Handle;
  /** Why the OpenID provider is missing, if it is. */
  oidcError?: string;
  web?: (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void>;
  /** Each caller's request budget; a default one when not given. */
  throttle?: ApiThrottle;
}

const sourceIpOf = (req: IncomingMessage) =>
  (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

function send(res: ServerResponse, r: GatewayResponse, requestId: string) {
  res.statusCode = r.statusCode;
  for (const [name, value] of r.headers) {
    if (name.toLowerCase() === 'set-cookie') res.appendHeader('set-cookie', value);
    else res.setHeader(name, value);
  }
  res.setHeader('apigw-requestid', requestId);
  res.setHeader('content-length', r.body.byteLength);
  res.end(r.body);
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** `/api/<prefix>[/...]` → the function serving the prefix; other paths go to the session function. */
export function apiRoute(
  rawPath: string,
  prefixes: ReadonlyMap<string, HttpFunctionName>,
): { fn: HttpFunctionName; route: ApiRoute } {
  const [, , prefix = '', ...rest] = rawPath.split('/');
  const fn = prefixes.get(prefix);
  if (!fn) return { fn: 'session', route: { routeKey: '$default' } };
  if (rest.length === 0) return { fn, route: { routeKey: `ANY /api/${prefix}` } };
  let proxy = rest.join('/');
  try {
    proxy = decodeURIComponent(proxy);
  } catch {
    // Left as sent, as the gateway does with a malformed escape.
  }
  return { fn, route: { routeKey: `ANY /api/${prefix}/{proxy+}`, proxy } };
}

/** Reads the body, or answers 413 once it passes the limit (Content-Length is checked before reading). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume();
      resolve('too-large');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function serveApi(
  parts: GatewayParts,
  throttle: ApiThrottle,
  req: IncomingMessage,
  res: ServerResponse,
  log: Log,
) {
  const requestId = gatewayId();
  const verdict = throttle.take(callerKey(req));
  if (!verdict.allowed) {
    // As API Gateway answers a throttled call, before any function runs.
    req.resume();
    json(res, 429, { message: 'Too Many Requests' }, { 'retry-after': String(verdict.retryAfterSeconds) });
    return;
  }
  const body = await readBody(req, MAX_API_BODY_BYTES);
  if (body === 'too-large') {
    res.setHeader('connection', 'close');
    send(res, gatewayErrors.tooLarge(), requestId);
    return;
  }
  const url = req.url ?? '/';
  const { fn: name, route } = apiRoute(url.split('?')[0] ?? '/', prefixes);
  const fn = parts.functions?.loaded.get(name);
  if (!fn) {
    log('api function unavailable', { fn: name, error: parts.functions?.failed.get(name) });
    send(res, gatewayErrors.internal(), requestId);
    return;
  }
  const event = apiGatewayEvent(
    {
      method: req.method ?? 'GET',
      url,
      httpVersion: req.httpVersion,
      rawHeaders: req.rawHeaders,
      body,
      sourceIp: sourceIpOf(req),
      requestId,
      now: new Date(),
    },
    route,
  );
  let response: GatewayResponse;
  try {
    response = gatewayResponse(await invoke(fn, event, requestId));
  } catch (err) {
    log(err instanceof FunctionTimeoutError ? 'api function timed out' : 'api function failed', {
      fn: name,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    response = err instanceof FunctionTimeoutError ? gatewayErrors.unavailable() : gatewayErrors.internal();
  }
  send(res, response, requestId);
}

const prefixes = routePrefixes();

/** CloudFront's headers on the app and the API (infra/security-headers.ts); every call is the page's origin. */
const SECURITY_HEADERS = Object.entries(securityHeaders());

/** The one origin: `/api`, `/ws`, `/@connections`, `/s3`, `/oidc`, and the app for everything else. */
export function createGateway(parts: GatewayParts, log: Log): Server {
  const throttle = parts.throttle ?? createApiThrottle();
  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    const under = (base: string) => pathname === base || pathname.startsWith(`${base}/`);
    // The S3 and sign-in stand-ins answer as S3 and the hosted sign-in pages do, from their own hosts in AWS.
    if (under('/oidc')) res.setHeader('x-content-type-options', 'nosniff');
    else if (!under(S3_PATH)) for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    if (pathname === '/api/health') {
      const h = parts.health();
      json(res, h.status, h.body);
      return;
    }
    if (under(S3_PATH) && parts.s3) return parts.s3(req, res);
    if (!parts.ready) {
      json(res, 503, { message: 'The local stack is starting' }, { 'retry-after': '1' });
      return;
    }
    if (under('/api')) return serveApi(parts, throttle, req, res, log);
    const management = /^(?:\/[^/]+)?\/@connections\/([^/]+)$/.exec(pathname);
    if (management && parts.ws) {
      return parts.ws.handleManagement(req, res, decodeURIComponent(management[1] ?? ''));
    }
    if (under('/oidc')) {
      if (parts.oidc) return parts.oidc(req, res);
      json(res, 503, { message: `The OpenID provider is not available: ${parts.oidcError ?? 'not loaded'}` });
      return;
    }
    if (pathname === WS_PATH) {
      res.writeHead(426, { upgrade: 'websocket', connection: 'Upgrade' }).end();
      return;
    }
    if (parts.web) return parts.web(req, res, pathname);
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    Promise.resolve(onRequest(req, res)).catch((err: unknown) => {
      log('gateway error', {
        url: req.url,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      if (!res.headersSent) json(res, 500, { message: 'Internal Server Error' });
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === WS_PATH && parts.ready && parts.ws) {
      parts.ws.handleUpgrade(req, socket, head);
      return;
    }
    const status = pathname === WS_PATH ? 503 : 404;
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
  });
  // Large uploads go to S3 by presigned URL; these bound what a slow client can hold open.
  server.requestTimeout = 5 * 60 * 1000;
  server.headersTimeout = 60 * 1000;
  return server;
}
