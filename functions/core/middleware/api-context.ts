import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller } from '../../../shared/access/caller.ts';
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

/** What an operation receives: the resolved route and the verified caller. */
export interface OpContext {
  route: HttpRoute;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string | undefined>;
  caller: Caller;
  log: Logger;
  correlationId: string;
}

export interface OpResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Operation = (ctx: OpContext) => Promise<OpResult>;
export type Operations = Readonly<Record<string, Operation>>;
