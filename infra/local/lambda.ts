import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { FUNCTIONS, type FunctionDecl, type FunctionName } from '../../shared/system/functions.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './environment.ts';

export type Handler = (event: unknown, context: Context) => unknown;

export interface LoadedFunction {
  decl: FunctionDecl;
  handler: Handler;
  /** Lambda names a log stream per execution environment, not per invocation: one per loaded function. */
  logStreamName?: string;
}

export interface FunctionLoad {
  loaded: Map<FunctionName, LoadedFunction>;
  failed: Map<FunctionName, string>;
}

/** Lambda's own message for an invocation that ran out of time. */
export class FunctionTimeoutError extends Error {
  constructor(decl: FunctionDecl) {
    super(`Task timed out after ${decl.timeoutSeconds.toFixed(2)} seconds`);
    this.name = 'FunctionTimeoutError';
  }
}

/**
 * Imports every function's entry module once, as a Lambda cold start does. A module that fails to load
 * is reported with its error instead of stopping the others.
 */
export async function loadFunctions(repoRoot: string): Promise<FunctionLoad> {
  const loaded = new Map<FunctionName, LoadedFunction>();
  const failed = new Map<FunctionName, string>();
  await Promise.all(
    FUNCTIONS.map(async (decl) => {
      try {
        const mod: unknown = await import(pathToFileURL(join(repoRoot, decl.entry)).href);
        const handler = (mod as { handler?: unknown }).handler;
        if (typeof handler !== 'function') throw new Error(`${decl.entry} exports no handler function`);
        loaded.set(decl.name, {
          decl,
          handler: handler as Handler,
          logStreamName: logStreamName(new Date()),
        });
      } catch (err) {
        failed.set(decl.name, err instanceof Error ? err.message : String(err));
      }
    }),
  );
  return { loaded, failed };
}

function logStreamName(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '/');
  return `${day}/[$LATEST]${randomUUID().replaceAll('-', '')}`;
}

/** The context object Lambda passes to a handler, with the deadline of the function's timeout. */
export function lambdaContext(
  decl: FunctionDecl,
  deadline: number,
  requestId: string = randomUUID(),
  streamName: string = logStreamName(new Date()),
): Context {
  const functionName = `voltfolio-${decl.name}`;
  const fail = () => {
    throw new Error('Callback-style completion is not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: String(decl.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: streamName,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: fail,
    fail,
    succeed: fail,
  };
}

/**
 * One invocation: the handler's result, or FunctionTimeoutError once the function's timeout passes (the
 * handler's work is then abandoned, as Lambda freezes it).
 */
export async function invoke(fn: LoadedFunction, event: unknown, requestId?: string): Promise<unknown> {
  const timeoutMs = fn.decl.timeoutSeconds * 1000;
  const context = lambdaContext(fn.decl, Date.now() + timeoutMs, requestId, fn.logStreamName);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FunctionTimeoutError(fn.decl)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => fn.handler(event, context)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
