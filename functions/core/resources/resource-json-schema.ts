import { type core, toJSONSchema } from 'zod';

/**
 * A resource's body as JSON Schema (GET /{resource}/schema). Its own module, loaded on the first call that
 * asks: the JSON Schema writer is a large part of zod that no other call of a function needs, and the
 * bundles take it from zod's full build only (see infra/build/bundle-functions.ts).
 */
export const inputJsonSchema = (schema: core.$ZodType) =>
  toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
