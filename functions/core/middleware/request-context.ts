import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import { MAX_JSON_BODY_BYTES } from '../../../shared/constants.ts';
import type { RouteTable } from '../../../shared/system/route-match.ts';
import { pathParamsSchema } from '../../../shared/system/route-params.ts';
import { config } from '../config.ts';
import { badRequest, notFound, payloadTooLarge, routeNotFound } from '../lib/errors.ts';
import { createLogger, type Logger } from '../lib/logger.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';

const CORRELATION_HEADER = 'x-correlation-id';
const CORRELATION_PATTERN = /^[A-Za-z0-9._-]{8,100}$/;

function header(event: HttpEvent, name: string): string | undefined {
  return event.headers?.[name] ?? event.headers?.[name.toLowerCase()];
}

/** Sets up the correlation id and the logger, so even a failure in a later middleware is logged with them. */
export function correlation(baseLog: Logger): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'correlation',
    before: (request) => {
      const given = header(request.event, CORRELATION_HEADER);
      const correlationId = given && CORRELATION_PATTERN.test(given) ? given : randomUUID();
      request.context.api = {
        correlationId,
        log: baseLog.child({ correlationId, method: request.event.requestContext?.http?.method }),
        startedAt: Date.now(),
        path: '/',
        params: {},
        query: {},
        body: undefined,
      };
    },
    after: (request) => {
      const api = request.context.api;
      if (request.response) {
        request.response.headers = { ...request.response.headers, [CORRELATION_HEADER]: api.correlationId };
      }
      api.log.info('request', {
        route: api.route ? `${api.route.method} ${api.route.path}` : undefined,
        status: request.response?.statusCode,
        ms: Date.now() - api.startedAt,
      });
    },
  };
}

/** Finds the declared route for the request; an undeclared one is 404 ROUTE_NOT_FOUND. */
export function resolveRoute(table: RouteTable): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'resolve-route',
    before: (request) => {
      const api = request.context.api;
      const method = request.event.requestContext.http.method.toUpperCase();
      const base = config().apiBasePath;
      const raw = request.event.rawPath || '/';
      const path = base && (raw === base || raw.startsWith(`${base}/`)) ? raw.slice(base.length) || '/' : raw;
      api.path = path;
      const match = table.match(method, path);
      if (!match) throw routeNotFound(method, path);
      api.route = match.route;
      api.params = match.params;
      // Own properties whatever their names: `?__proto__=x` is a parameter named so, not a prototype.
      api.query = Object.fromEntries(
        Object.entries(request.event.queryStringParameters ?? {}).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      );
    },
  };
}

/**
 * Checks the path parameters against the route's path: each present and no longer than a database key.
 * One that cannot name anything reads as absent (404), as a lookup of it would. It runs after the route's
 * rules, so a caller who may not make the call hears that first, as before.
 */
export function routeParams(): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'route-params',
    before: (request) => {
      const api = request.context.api;
      if (!api.route) return;
      const parsed = pathParamsSchema(api.route.path).safeParse(api.params);
      if (!parsed.success) throw notFound();
      api.params = parsed.data;
    },
  };
}

/**
 * Parses JSON bodies: malformed is 400, over the limit (the route's own, if it sets one) is 413, another
 * content type is kept as text.
 */
export function jsonBody(
  limit = MAX_JSON_BODY_BYTES,
): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'json-body',
    before: (request) => {
      const { event } = request;
      if (event.body === undefined || event.body === null || event.body === '') return;
      const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
      const max = request.context.api.route?.maxBodyBytes ?? limit;
      if (raw.byteLength > max) throw payloadTooLarge(max);
      const type = header(event, 'content-type') ?? 'application/json';
      if (!/json/i.test(type)) {
        request.context.api.body = raw.toString('utf8');
        return;
      }
      try {
        request.context.api.body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw badRequest('The request body is not valid JSON', 'MALFORMED_JSON');
      }
    },
  };
}

export const defaultLogger = createLogger({ service: 'voltfolio' });
