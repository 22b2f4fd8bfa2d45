import type * as z from 'zod';
import { config, safeParse } from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { formError } from './errors.ts';

// zod sets its English wording when its full build makes its first schema; a function that starts with
// zod/mini alone (as every HTTP function now does) would otherwise word each refusal "Invalid input",
// which neither tells a wrong type from a missing field below nor reads well beside a field.
config(en());

/**
 * zod's own wording for a value of the wrong type. zod 4 leaves the input out of its issues, so the only
 * way to tell a missing field from a wrong one is what it says it received.
 */
const ZOD_TYPE_MESSAGE = /^Invalid input: expected (\w+), received (\w+)$/;

const TYPE_WORDS: Record<string, string> = {
  string: 'Must be text',
  number: 'Must be a number',
  int: 'Must be a whole number',
  boolean: 'Must be true or false',
  array: 'Must be a list',
  object: 'Must be an object',
  date: 'Must be a date',
};

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const wording = ZOD_TYPE_MESSAGE.exec(issue.message);
  // A schema that chose its own message for a wrong type keeps it.
  if (!wording) return issue.message;
  const [, expected = '', received] = wording;
  // A form sends null for a field left empty.
  if (received === 'undefined' || received === 'null') return 'This field is required';
  return TYPE_WORDS[expected] ?? issue.message;
}

/** zod issues as the client's formMessages map: one message per field path, the first issue winning. */
export function formMessagesOf(error: z.core.$ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_form';
    if (out[key]) continue;
    out[key] = messageOf(issue);
  }
  return out;
}

/**
 * What the database client and the database can hold: numbers no larger than the largest safe integer
 * and no nearer zero than 1e-130, documents nested 32 deep. A schema's `z.number()` lets 1e308 through
 * and a free-form field any depth, which would fail the write.
 */
const MAX_STORED_NUMBER = Number.MAX_SAFE_INTEGER;
const MIN_STORED_NUMBER = 1e-128;
const MAX_STORED_DEPTH = 30;

/** Every number and nesting in a parsed value the database would refuse, by field path. */
function unstorable(value: unknown, path: string[], out: Record<string, string>): void {
  const key = () => (path.length > 0 ? path.join('.') : '_form');
  if (typeof value === 'number') {
    const size = Math.abs(value);
    if (size > MAX_STORED_NUMBER) out[key()] ??= 'This number is too large';
    else if (size !== 0 && size < MIN_STORED_NUMBER) out[key()] ??= 'This number is too small';
    return;
  }
  if (!value || typeof value !== 'object') return;
  if (path.length >= MAX_STORED_DEPTH) {
    out[key()] ??= 'This value is nested too deeply';
    return;
  }
  for (const [k, v] of Object.entries(value)) unstorable(v, [...path, k], out);
}

/**
 * Parses input with a schema or throws a 400 form error naming each bad field, including a value that
 * fits the schema but not the database, so the caller hears which field rather than a failed write.
 */
export function parseOrThrow<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = safeParse(schema, input);
  if (!result.success) throw formError(formMessagesOf(result.error));
  throwIfUnstorable(result.data);
  return result.data;
}

/**
 * The database stores a record of at most 400 KB, and a record's searchable text is stored a second time
 * beside it: a record of more than half that is refused before the write, not failed by it.
 */
export const MAX_RECORD_BYTES = 190 * 1024;

/** A 400 beside the largest field of a record too large to store; `prefix` places it in a list (`3.`). */
export function throwIfOversized(record: Record<string, unknown>, prefix = ''): void {
  const sizes = Object.entries(record).map(([k, v]): [string, number] => [
    k,
    Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8'),
  ]);
  if (sizes.reduce((n, [, size]) => n + size, 0) <= MAX_RECORD_BYTES) return;
  const [largest] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
  throw formError({ [`${prefix}${largest}`]: 'This is too long to save' });
}

/** A 400 beside each field of parsed input the database would refuse (see `unstorable`). */
export function throwIfUnstorable(value: unknown): void {
  const refused: Record<string, string> = {};
  unstorable(value, [], refused);
  if (Object.keys(refused).length > 0) throw formError(refused);
}

/**
 * Refuses a request body's fields other than `allowed`, each beside the field: where it is changed instead
 * (`elsewhere`), else that it cannot be changed. A body that is not an object is left to the schema.
 */
export function refuseOtherFields(
  body: unknown,
  allowed: readonly string[],
  elsewhere: Readonly<Record<string, string>>,
  message: string,
): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const refused = Object.keys(body).filter((k) => !allowed.includes(k));
  if (refused.length === 0) return;
  // Own keys only: a field named `__proto__` or `constructor` would otherwise find Object's own members.
  const said = (k: string) => (Object.hasOwn(elsewhere, k) ? elsewhere[k] : undefined);
  throw formError(Object.fromEntries(refused.map((k) => [k, said(k) ?? 'This cannot be changed'])), message);
}
