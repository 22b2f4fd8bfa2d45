import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { Caller } from '../../../shared/access/caller.ts';
import type { PathParams } from '../../../shared/system/route-params.ts';
import type { HttpRoute } from '../../../shared/system/routes.ts';
import type { Logger } from '../lib/logger.ts';

/** What the middleware chain learns about a request, in order: correlation, route, body, caller. */
export interface ApiState {
  correlationId: string;
  log: Logger;
  startedAt: number;
  /** Path below the API base path. */
  path: string;
  route?: HttpRoute;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  caller?: Caller;
}

export type ApiContext = Context & { api: ApiState };
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/**
 * What an operation receives: the resolved route, the verified caller, and the path parameters and
 * query values it declared (see `operation`), typed; an operation that declares none sees them as text.
 */
export interface OpContext<P = Record<string, string>, Q = Record<string, string>> {
  route: HttpRoute;
  params: P;
  query: Q;
  body: unknown;
  headers: Record<string, string | undefined>;
  caller: Caller;
  log: Logger;
  correlationId: string;
}

/** The context of an operation reading the named path parameters: what its helpers take. */
export type WithParams<N extends string, Q = unknown> = OpContext<PathParams<N>, Q>;

/** The context of any operation, whatever it declared: for helpers that read neither parameters nor query. */
export type AnyOpContext = OpContext<Readonly<Record<string, string>>, unknown>;

export interface OpResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What an operation declares it reads: path parameters by name, and the schema of its route's query. */
export interface OperationSpec {
  params: readonly string[];
  query?: z.core.$ZodType;
}

export type Operation = ((ctx: OpContext) => Promise<OpResult>) & { spec?: OperationSpec };
export type Operations = Readonly<Record<string, Operation>>;

const isFields = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request body as an object, or an empty one: the schema that parses it then names every missing field. */
export const bodyObjectOf = (ctx: Pick<OpContext, 'body'>): Record<string, unknown> =>
  isFields(ctx.body) ? ctx.body : {};
