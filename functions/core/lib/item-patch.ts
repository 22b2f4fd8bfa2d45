import type * as z from 'zod';
import { formError } from './errors.ts';
import { formMessagesOf, throwIfUnstorable } from './validation.ts';

/**
 * A field a stored item may lack: its schema takes "absent" and fills nothing in, and does not already
 * take null as a value of its own (such a field keeps storing the null it is sent).
 */
function isClearable(field: z.ZodType): boolean {
  const absent = field.safeParse(undefined);
  return absent.success && absent.data === undefined && !field.safeParse(null).success;
}

/**
 * The schema a PATCH body is checked against: every field may be left out, and an optional field may
 * be null, which clears it. A required field sent as null still fails, as "This field is required".
 */
function patchSchemaOf(schema: z.ZodObject): { patchSchema: z.ZodObject; clearable: ReadonlySet<string> } {
  const clearable = Object.entries(schema.shape).filter(([, field]) => isClearable(field));
  return {
    patchSchema: schema
      .extend(Object.fromEntries(clearable.map(([k, field]) => [k, field.nullable()])))
      .partial(),
    clearable: new Set(clearable.map(([k]) => k)),
  };
}

/**
 * `existing` with a PATCH body applied: only the fields the body names change (a partial schema would
 * otherwise fill defaults for the rest), and an optional field sent as null is removed from the item,
 * since a form can only say "I emptied this" with a value.
 */
export function applyPatch<T extends Record<string, unknown>>(
  existing: T,
  schema: z.ZodObject,
  body: unknown,
): T {
  const fields: Record<string, unknown> =
    body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  const given = Object.keys(fields);
  const { patchSchema, clearable } = patchSchemaOf(schema);
  const result = patchSchema.safeParse(body);
  if (!result.success) {
    const messages = formMessagesOf(result.error);
    // A field refused for null is one that cannot be cleared, whatever its type's own wording.
    for (const k of given) if (fields[k] === null && messages[k]) messages[k] = 'This field is required';
    throw formError(messages);
  }
  const patch = result.data;
  throwIfUnstorable(patch);
  const next: Record<string, unknown> = { ...existing };
  for (const [k, value] of Object.entries(patch)) {
    if (!given.includes(k)) continue;
    if (value === null && clearable.has(k)) delete next[k];
    else next[k] = value;
  }
  return next as T;
}

/**
 * The fields of a parsed PATCH body that the caller sent: what a partial schema filled in for the absent
 * ones (a default) is not a change.
 */
export function sentFields<T extends object>(parsed: T, body: unknown): Partial<T> {
  const given = body && typeof body === 'object' ? Object.keys(body) : [];
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => given.includes(k))) as Partial<T>;
}
