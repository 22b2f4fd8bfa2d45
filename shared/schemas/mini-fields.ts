import * as z from 'zod/mini';

/**
 * The fields every area shares, in zod's small build (`zod/mini`), for the modules a function reads at start
 * (route and query declarations, caller checks, the services of its frequent calls). Reading zod's full build
 * at start costs every cold start ~3 ms of parsing and set-up even when no schema is built; `fields.ts` keeps
 * the same fields in the full build for the schemas of writes, which load when first needed.
 */

/** A 24-hex identifier whose leading digits are its creation time, so ids sort in creation order. */
export const ID_PATTERN = /^[0-9a-f]{24}$/;
export const ID_MESSAGE = 'Must be a valid id';
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const DATE_MESSAGE = 'Must be a date as YYYY-MM-DD';
export const REQUIRED_MESSAGE = 'This field is required';
export const UTILITY_TYPES = ['electricity', 'gas', 'water', 'waste', 'heating', 'cooling', 'solar'] as const;

export const idField = () => z.string().check(z.regex(ID_PATTERN, ID_MESSAGE));
export const isoDateField = () => z.string().check(z.regex(DATE_PATTERN, DATE_MESSAGE));
export const utilityTypeField = () => z.enum(UTILITY_TYPES);
/** Text with something in it once trimmed. */
export const nonEmptyField = () => z.string().check(z.trim(), z.minLength(1, REQUIRED_MESSAGE));
