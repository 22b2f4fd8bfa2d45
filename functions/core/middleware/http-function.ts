import middy from '@middy/core';
import type { AreaDecl } from '../../../shared/system/area.ts';
import type { HttpFunctionName } from '../../../shared/system/functions.ts';
import { hasResourceSchema, loadResourceSchemas } from '../../../shared/system/resource-schemas.ts';
import { assembleRoutes } from '../../../shared/system/route-assembly.ts';
import { RouteTable } from '../../../shared/system/route-match.ts';
import { pathParamNames } from '../../../shared/system/route-params.ts';
import type { HttpRoute } from '../../../shared/system/routes.ts';
import { consumedCapacityMeasured, withConsumedCapacity } from '../adapters/consumed-capacity.ts';
import type { TokenVerifier } from '../adapters/token-verifier.ts';
import type { Logger } from '../lib/logger.ts';
import type { ApiContext, HttpEvent, HttpResult, Operation, Operations } from './api-context.ts';
import { authenticate } from './authenticate.ts';
import { authorizeRoute } from './authorize.ts';
import { errorHandler } from './error-handler.ts';
import { jsonResponse } from './json-response.ts';
import { correlation, defaultLogger, jsonBody, resolveRoute, routeParams } from './request-context.ts';

/**
 * Where an operation's declaration disagrees with a route it serves: a path parameter it reads that the
 * path lacks, or a query schema other than the route's.
 */
export function declarationProblems(route: HttpRoute, op: Operation | undefined): string[] {
  if (!op) return [];
  const where = `${route.method} ${route.path} (${route.op})`;
  const names = pathParamNames(route.path);
  const problems = (op.spec?.params ?? [])
    .filter((p) => !names.includes(p))
    .map((p) => `${where} has no path parameter ${p}`);
  const declared = route.query;
  if (declared !== op.spec?.query) {
    problems.push(
      declared
        ? `${where} declares a query schema its operation does not take`
        : `${where} declares no query schema, but its operation takes one`,
    );
  }
  return problems;
}

/**
 * The HTTP entry of one resource area: every route the given areas declare for the function, with the
 * generic routes of its resources, served by the named operations. The function is given the areas that
 * declare its routes rather than reading every area's, so it carries no other function's routes and
 * query schemas (a test checks that it is given all of its own). A declared route without an operation,
 * or naming a resource whose schemas the function has not registered
 * (`shared/system/resource-schemas/<fn>.ts`), fails at load time, not at a request; operations loaded on
 * first call are checked when they load (and by a test, through `allOperations`).
 */
export function httpFunction(
  fn: HttpFunctionName,
  areas: readonly AreaDecl[],
  operations: Operations,
  opts: {
    log?: Logger;
    verifier?: () => TokenVerifier;
    /**
     * The operations of the function's other routes, loaded on the first call of one of them: their
     * modules, and the schemas those build, then weigh on that call instead of on every cold start.
     * They are checked against the routes when they load, as `operations` are when the function loads.
     */
    later?: () => Promise<Operations>;
    /**
     * Operations that parse no resource: they run without waiting for schemas registered for later
     * (`registerResourceSchemasLater`), which every other operation awaits first.
     */
    withoutResourceSchemas?: readonly string[];
  } = {},
) {
  const log = opts.log ?? defaultLogger;
  const routes = assembleRoutes(areas, fn);
  const checkServed = (all: Operations) => {
    const missing = routes.filter((r) => !all[r.op]).map((r) => `${r.method} ${r.path} (${r.op})`);
    if (missing.length > 0) throw new Error(`Function ${fn} has no operation for: ${missing.join(', ')}`);
  };
  if (!opts.later) checkServed(operations);
  const unregistered = [
    ...new Set(routes.flatMap((r) => (r.resource && !hasResourceSchema(r.resource) ? [r.resource] : []))),
  ];
  if (unregistered.length > 0) {
    throw new Error(
      `Function ${fn} serves resources without registered schemas: ${unregistered.join(', ')} ` +
        `(import shared/system/resource-schemas/${fn}.ts)`,
    );
  }
  const checkDeclared = (all: Operations) => {
    const mismatched = routes.flatMap((r) => declarationProblems(r, all[r.op]));
    if (mismatched.length > 0) throw new Error(`Function ${fn}: ${mismatched.join('; ')}`);
  };
  checkDeclared(operations);
  const later = opts.later;
  let everyOperation: Promise<Operations> | undefined;
  /** Every operation of the function, the later ones loaded once and checked like the others. */
  const allOperations = (): Promise<Operations> => {
    everyOperation ??= (later ? later() : Promise.resolve({})).then((loaded) => {
      const all = { ...loaded, ...operations };
      checkServed(all);
      checkDeclared(all);
      return all;
    });
    everyOperation.catch(() => {
      everyOperation = undefined;
    });
    return everyOperation;
  };
  const table = new RouteTable(routes);
  const withoutSchemas = new Set(opts.withoutResourceSchemas);

  const handler = middy<HttpEvent, HttpResult, Error, ApiContext>()
    .use(correlation(log.child({ fn })))
    .use(errorHandler())
    .use(resolveRoute(table))
    .use(jsonBody())
    .use(authenticate(opts.verifier))
    .use(authorizeRoute())
    .use(routeParams())
    .handler(async (event, context) => {
      const api = context.api;
      const route = api.route;
      const caller = api.caller;
      if (!route || !caller) throw new Error('Route and caller must be resolved before the handler');
      if (!withoutSchemas.has(route.op)) await loadResourceSchemas();
      const operation = operations[route.op] ?? (await allOperations())[route.op];
      if (!operation) throw new Error(`No operation ${route.op}`);
      const result = await operation({
        route,
        params: api.params,
        query: api.query,
        body: api.body,
        headers: event.headers ?? {},
        caller,
        log: api.log,
        correlationId: api.correlationId,
      });
      return jsonResponse(result.status ?? 200, result.body, result.headers);
    });
  const served = consumedCapacityMeasured ? withConsumedCapacity(handler) : handler;
  return Object.assign(served, { routes: routes as readonly HttpRoute[], allOperations });
}
