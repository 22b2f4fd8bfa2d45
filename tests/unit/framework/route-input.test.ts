import { readdirSync } from 'node:fs';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createLogger } from '../../../functions/core/lib/logger.ts';
import type {
  ApiContext,
  HttpEvent,
  HttpResult,
  Operation,
} from '../../../functions/core/middleware/api-context.ts';
import { errorHandler } from '../../../functions/core/middleware/error-handler.ts';
import { declarationProblems } from '../../../functions/core/middleware/http-function.ts';
import { jsonResponse } from '../../../functions/core/middleware/json-response.ts';
import { operation } from '../../../functions/core/middleware/operation.ts';
import { correlation, routeParams } from '../../../functions/core/middleware/request-context.ts';
import { EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import { pageQuery } from '../../../shared/schemas/queries.ts';
import { HTTP_FUNCTIONS } from '../../../shared/system/functions.ts';
import { withQueries } from '../../../shared/system/route-builder.ts';
import { RouteTable } from '../../../shared/system/route-match.ts';
import { pathParamNames } from '../../../shared/system/route-params.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../../shared/system/routes.ts';

const periodQuery = z.object({
  from: z
    .string()
    .regex(/^\d{4}-\d{2}$/, 'Must be a month as YYYY-MM')
    .optional(),
  limit: pageQuery().shape.limit,
});

const ROUTE: HttpRoute = {
  method: 'GET',
  path: '/things/{id}/parts/{partId}',
  fn: 'util',
  op: 'things.part',
  permission: '*',
};

const part = operation({ params: ['id', 'partId'], query: periodQuery }, async (ctx) => ({
  // Typed: no cast, and `limit` is a number.
  body: {
    id: ctx.params.id.toUpperCase(),
    partId: ctx.params.partId,
    from: ctx.query.from,
    limit: ctx.query.limit + 1,
  },
}));

/** A request through the route-parameter check to the operation, as an HTTP function sends one. */
async function call(path: string, query: Record<string, string> = {}) {
  const table = new RouteTable([ROUTE]);
  const handler = middy<HttpEvent, HttpResult, Error, ApiContext>()
    .use(correlation(createLogger({}, 'error', () => undefined)))
    .use(errorHandler())
    .use({
      before: (request) => {
        const match = table.match('GET', path);
        if (!match) throw new Error(`no route for ${path}`);
        request.context.api.route = match.route;
        request.context.api.params = match.params;
        request.context.api.query = query;
      },
    })
    .use(routeParams())
    .handler(async (_event, context) => {
      const { api } = context;
      const result = await part({
        route: ROUTE,
        params: api.params,
        query: api.query,
        body: undefined,
        headers: {},
        caller: {
          kind: 'user',
          sub: 'u',
          companyId: 'c',
          isAdmin: false,
          permissions: [],
          grants: EMPTY_GRANTS,
          roles: [],
        },
        log: api.log,
        correlationId: api.correlationId,
      });
      return jsonResponse(result.status ?? 200, result.body);
    });
  const event = { rawPath: `/api${path}`, headers: {}, requestContext: { http: { method: 'GET' } } };
  const result = (await handler(event as unknown as HttpEvent, {} as Context as ApiContext)) as HttpResult;
  return { status: result.statusCode, body: JSON.parse(String(result.body)) as Record<string, unknown> };
}

describe('path parameters', () => {
  it('reach the operation by name, decoded', async () => {
    const res = await call('/things/abc/parts/a%20b');
    expect(res).toEqual({ status: 200, body: { id: 'ABC', partId: 'a b', limit: 101 } });
  });

  it('answer 404 when one is too long to be a database key, as an absent item does', async () => {
    expect((await call(`/things/${'i'.repeat(1025)}/parts/p`)).status).toBe(404);
    expect((await call(`/things/${'é'.repeat(600)}/parts/p`)).status).toBe(404);
    expect((await call(`/things/${'i'.repeat(1024)}/parts/p`)).status).toBe(200);
  });

  it('are named from the path template', () => {
    expect(pathParamNames('/companies/{id}/users/{userSub}')).toEqual(['id', 'userSub']);
    expect(pathParamNames('/users/me')).toEqual([]);
  });
});

describe('operations handing their context on', () => {
  it('pass every path parameter, not only those they read', async () => {
    const inner = operation({ params: ['id', 'subId'] }, async (ctx) => ({ body: ctx.params }));
    const outer = operation({ params: ['id'] }, async (ctx) => inner(ctx));
    const ctx = {
      route: ROUTE,
      params: { id: 'a', subId: 'b' },
      query: {},
      body: undefined,
      headers: {},
      caller: {
        kind: 'user',
        sub: 'u',
        companyId: 'c',
        isAdmin: false,
        permissions: [],
        grants: EMPTY_GRANTS,
        roles: [],
      },
      log: createLogger({}, 'error', () => undefined),
      correlationId: 'corr-12345678',
    } as const;
    expect(await outer(ctx)).toEqual({ body: { id: 'a', subId: 'b' } });
    await expect(inner({ ...ctx, params: { id: 'a' } })).rejects.toThrow(/subId/);
  });
});

describe('query values', () => {
  it('reach the operation parsed by its schema', async () => {
    const res = await call('/things/a/parts/b', { from: '2025-03', limit: '20', other: 'x' });
    expect(res.body).toEqual({ id: 'A', partId: 'b', from: '2025-03', limit: 21 });
  });

  it('answer 400 naming the bad value before the operation runs', async () => {
    const res = await call('/things/a/parts/b', { from: 'March' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid query parameter (from: Must be a month as YYYY-MM)');
    expect(res.body.formMessages).toEqual({ from: 'Must be a month as YYYY-MM' });
  });

  it('fall back to the defaults for paging that makes no sense, as lists always have', () => {
    const page = pageQuery(20, 50);
    expect(page.parse({})).toEqual({ limit: 20, skip: 0 });
    expect(page.parse({ limit: 'abc', skip: '-3' })).toEqual({ limit: 20, skip: 0 });
    expect(page.parse({ limit: '500', skip: '7' })).toEqual({ limit: 50, skip: 7 });
  });
});

describe('operation declarations', () => {
  const plain: Operation = async () => ({});

  it('must agree with the routes they serve', () => {
    expect(declarationProblems(ROUTE, part)).toEqual([
      'GET /things/{id}/parts/{partId} (things.part) declares no query schema, but its operation takes one',
    ]);
    const other = { ...ROUTE, path: '/things/{id}' };
    const byId = operation({ params: ['id', 'partId'] }, async () => ({}));
    expect(declarationProblems(other, byId)).toEqual([
      'GET /things/{id} (things.part) has no path parameter partId',
    ]);
    expect(declarationProblems(other, plain)).toEqual([]);
  });

  it('name declared routes only', () => {
    expect(withQueries([ROUTE], { 'GET /things/{id}/parts/{partId}': periodQuery })[0]?.query).toBe(
      periodQuery,
    );
    expect(() => withQueries([ROUTE], { 'GET /things/{id}': periodQuery })).toThrow(
      'Query schemas for undeclared routes: GET /things/{id}',
    );
  });

  it('are checked when each HTTP function loads, over every route the system declares for it', async () => {
    // Each function is given the areas that declare its routes; one left out would leave its calls unserved.
    const dir = new URL('../../../functions/handlers/http/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const served = new Map<string, readonly HttpRoute[]>();
    for (const f of files) {
      const { handler } = (await import(new URL(f, dir).href)) as {
        handler: { routes: readonly HttpRoute[]; allOperations: () => Promise<Record<string, unknown>> };
      };
      served.set(f.replace(/\.ts$/, ''), handler.routes);
      // Operations loaded on a route's first call are checked as they load: each route has one that agrees.
      const operations = await handler.allOperations();
      for (const r of handler.routes) expect(operations[r.op], `${f} ${r.op}`).toBeTypeOf('function');
    }
    const byKey = (a: HttpRoute, b: HttpRoute) =>
      `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`);
    for (const fn of HTTP_FUNCTIONS) {
      const declared = HTTP_ROUTES.filter((r) => r.fn === fn);
      expect(declared.length, fn).toBeGreaterThan(0);
      expect([...(served.get(fn) ?? [])].sort(byKey), fn).toEqual([...declared].sort(byKey));
    }
  });
});
