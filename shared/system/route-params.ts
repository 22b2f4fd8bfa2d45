import * as z from 'zod/mini';

/**
 * The database refuses a key longer than 1024 bytes, so no item has an id longer than that: a path
 * parameter past it names nothing and reads as absent.
 */
export const MAX_PATH_PARAM_BYTES = 1024;

/** The `{name}` parameters of a path template, as a type: `'/assets/{id}/x/{subId}'` gives `'id' | 'subId'`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamNames<Rest>
  : never;

/** The values of the named path parameters: every one present, as text. */
export type PathParams<N extends string> = { readonly [K in N]: string };

/** The `{name}` parameters of a path template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
}

const utf8 = new TextEncoder();

/**
 * A path parameter: text that could be a database key (not empty, not over its length). Built with zod's
 * small build (`zod/mini`), as every function checks path parameters: the full build's schemas cost a cold
 * start several milliseconds.
 */
export const pathParamSchema = z.string().check(
  z.minLength(1, 'Must not be empty'),
  z.refine((v) => utf8.encode(v).byteLength <= MAX_PATH_PARAM_BYTES, 'Too long to name anything'),
);

const schemas = new Map<string, z.ZodMiniType<Record<string, string>>>();

/** The schema of a route's path parameters, built from its path template (one per template, reused). */
export function pathParamsSchema(path: string): z.ZodMiniType<Record<string, string>> {
  let schema = schemas.get(path);
  if (!schema) {
    schema = z.object(Object.fromEntries(pathParamNames(path).map((n) => [n, pathParamSchema])));
    schemas.set(path, schema);
  }
  return schema;
}
