import type * as z from 'zod';
import { safeParse } from 'zod/mini';
import type { PathParams } from '../../../shared/system/route-params.ts';
import { formError } from '../lib/errors.ts';
import { formMessagesOf } from '../lib/validation.ts';
import type { OpContext, Operation, OpResult } from './api-context.ts';

/**
 * A query schema: it is given the query string's values, each as text. Of zod's full build or its small
 * one (`zod/mini`, as the schemas built on first use are), so it is parsed with the function both share.
 */
export type QuerySchema = z.core.$ZodType;

/** Parses a route's query values with its schema, or answers 400 naming each bad value. */
export function parseQuery<S extends QuerySchema>(schema: S, query: Record<string, string>): z.output<S> {
  const result = safeParse(schema, query);
  if (result.success) return result.data;
  const messages = formMessagesOf(result.error);
  const first = Object.entries(messages)[0];
  const what = first ? (first[0] === '_form' ? first[1] : `${first[0]}: ${first[1]}`) : 'bad value';
  throw formError(messages, `Invalid query parameter (${what})`);
}

/**
 * The path parameters, each of those named present (the route's path declares them, as checked when the
 * function loads). The others stay too, so an operation that hands its context on to another (a generic
 * one it extends) passes every parameter the route gave.
 */
function pickParams<N extends string>(names: readonly N[], params: Record<string, string>): PathParams<N> {
  for (const name of names) {
    if (params[name] === undefined) throw new Error(`Path parameter ${name} is not in the route's path`);
  }
  return { ...params } as PathParams<N>;
}

interface Declared<N extends string, S extends QuerySchema | undefined> {
  /** The path parameters the operation reads. */
  params?: readonly N[];
  /** The schema its route declares for the query (`withQueries` in the area's declaration). */
  query?: S;
}

type QueryOf<S> = S extends QuerySchema ? z.output<S> : Record<string, string>;

/**
 * An operation that receives its path parameters and query typed: the parameters it names (present and
 * database-key sized, as the middleware checked) and its query parsed by its route's schema, a bad value
 * answering 400 before the operation runs. The function refuses to load when a route it serves lacks a
 * named parameter or declares another query schema.
 */
export function operation<const N extends string = never, S extends QuerySchema | undefined = undefined>(
  declared: Declared<N, S>,
  run: (ctx: OpContext<PathParams<N>, QueryOf<S>>) => Promise<OpResult>,
): Operation {
  const names = declared.params ?? [];
  const schema = declared.query;
  const op = async (ctx: OpContext): Promise<OpResult> => {
    const params = pickParams(names, ctx.params);
    const query = (schema ? parseQuery(schema, ctx.query) : ctx.query) as QueryOf<S>;
    return run({ ...ctx, params, query });
  };
  return Object.assign(op, { spec: { params: names, ...(schema ? { query: schema } : {}) } });
}

/**
 * An operation whose code loads on its first call, so that code few calls need weighs on no cold start. It
 * declares what the loaded operation declares (path parameters, query schema), for the function to check
 * its routes when it loads; the loaded operation reads the request itself.
 */
export function onFirstCall<const N extends string = never>(
  declared: Declared<N, QuerySchema | undefined>,
  load: () => Promise<Operation>,
): Operation {
  let loading: Promise<Operation> | undefined;
  const loaded = () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
  const op = async (ctx: OpContext): Promise<OpResult> => (await loaded())(ctx);
  const schema = declared.query;
  return Object.assign(op, { spec: { params: declared.params ?? [], ...(schema ? { query: schema } : {}) } });
}
