import * as z from 'zod';

/**
 * The fields every area shares, as schemas built when called rather than when this module loads. The
 * modules a function loads at start (caller checks, query declarations) take them from here: building a
 * schema of zod's full build at start costs a cold start zod's one-time setup. `common.ts` builds each once.
 */

/** A 24-hex identifier whose leading digits are its creation time, so ids sort in creation order. */
export const ID_PATTERN = /^[0-9a-f]{24}$/;
export const ID_MESSAGE = 'Must be a valid id';
export const idField = () => z.string().regex(ID_PATTERN, ID_MESSAGE);

export const isoDateField = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date as YYYY-MM-DD');

export const UTILITY_TYPES = ['electricity', 'gas', 'water', 'waste', 'heating', 'cooling', 'solar'] as const;
export const utilityTypeField = () => z.enum(UTILITY_TYPES);

const REQUIRED_MESSAGE = 'This field is required';
/** Text with something in it once trimmed. */
export const nonEmptyField = () => z.string().trim().min(1, REQUIRED_MESSAGE);
