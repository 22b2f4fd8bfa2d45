import {
  BUCKETS,
  type BucketName,
  FUNCTIONS,
  type FunctionDecl,
  type HttpFunctionName,
  type MailReceiptDecl,
  type QueueDecl,
  type ScheduleDecl,
  type SubscriptionDecl,
  WS_ROUTES,
  type WsRouteDecl,
} from '../../shared/system/functions.ts';
import { MAIL_RECEIPTS, QUEUE_DECLS, SCHEDULES, SUBSCRIPTIONS } from '../../shared/system/pipeline.ts';
import { routePrefixes } from '../../shared/system/routes.ts';
import { TABLE } from '../../shared/system/table.ts';

/** Everything the CDK app builds from: the system declaration of shared/system, in one value. */
export interface SystemDecl {
  functions: readonly FunctionDecl[];
  /** First path segment below `/api` → the function serving it. */
  httpPrefixes: ReadonlyMap<string, HttpFunctionName>;
  wsRoutes: readonly WsRouteDecl[];
  queues: readonly QueueDecl[];
  subscriptions: readonly SubscriptionDecl[];
  mailReceipts: readonly MailReceiptDecl[];
  schedules: readonly ScheduleDecl[];
  buckets: readonly BucketName[];
  table: typeof TABLE;
}

export function systemDecl(): SystemDecl {
  return {
    functions: FUNCTIONS,
    httpPrefixes: routePrefixes(),
    wsRoutes: WS_ROUTES,
    queues: QUEUE_DECLS,
    subscriptions: SUBSCRIPTIONS,
    mailReceipts: MAIL_RECEIPTS,
    schedules: SCHEDULES,
    buckets: BUCKETS,
    table: TABLE,
  };
}

export function functionsOfKind(system: SystemDecl, kind: FunctionDecl['kind']): FunctionDecl[] {
  return system.functions.filter((f) => f.kind === kind);
}

export function functionDecl(system: SystemDecl, name: string): FunctionDecl {
  const decl = system.functions.find((f) => f.name === name);
  if (!decl) throw new Error(`No function named ${name} is declared`);
  return decl;
}

/** `email-intake` → `EmailIntake`, for construct ids. */
export function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

/** `email-intake` → `EMAIL_INTAKE`, as functions/core/config.ts spells environment variables. */
export function upperSnake(name: string): string {
  return name.toUpperCase().replaceAll('-', '_');
}
