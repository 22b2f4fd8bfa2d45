import type * as z from 'zod';
import { formError } from './errors.ts';

/** zod issues as the client's formMessages map: one message per field path, the first issue winning. */
export function formMessagesOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_form';
    if (out[key]) continue;
    out[key] =
      issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required' : issue.message;
  }
  return out;
}

/** Parses input with a schema or throws a 400 form error naming each bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw formError(formMessagesOf(result.error));
  return result.data;
}
