import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { FUNCTIONS, type HttpFunctionName } from '../../shared/system/functions.ts';
import { routePrefixes } from '../../shared/system/routes.ts';
import { httpEvent, lambdaContext, parseResult, type TestRequest, type TestResponse } from './http-events.ts';

type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/**
 * Calls the HTTP functions the way the API gateway does: the first path segment picks the function,
 * the function's own router does the rest. Handlers are imported after the environment is set.
 */
export async function loadApi(): Promise<(req: TestRequest) => Promise<TestResponse>> {
  const handlers = new Map<HttpFunctionName, HttpHandler>();
  for (const fn of FUNCTIONS) {
    if (fn.kind !== 'http') continue;
    const mod = (await import(path.resolve(import.meta.dirname, '../..', fn.entry))) as {
      handler: HttpHandler;
    };
    handlers.set(fn.name as HttpFunctionName, mod.handler);
  }
  const prefixes = routePrefixes();
  return async (req) => {
    const prefix = req.path.split('?')[0]?.split('/')[1] ?? '';
    const fn = prefixes.get(prefix) ?? 'session';
    const handler = handlers.get(fn);
    if (!handler) throw new Error(`No handler for ${fn}`);
    const result = await handler(httpEvent(req), lambdaContext(fn));
    return parseResult(typeof result === 'string' ? { statusCode: 200, body: result } : result);
  };
}
