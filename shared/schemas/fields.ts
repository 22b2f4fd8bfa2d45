import * as z from 'zod';
import {
  DATE_MESSAGE,
  DATE_PATTERN,
  ID_MESSAGE,
  ID_PATTERN,
  REQUIRED_MESSAGE,
  UTILITY_TYPES,
} from './mini-fields.ts';

/**
 * The fields every area shares, in zod's full build, as schemas built when called rather than when this
 * module loads, for the schemas of writes (`common.ts` builds each once). Modules a function reads at start
 * take theirs from `mini-fields.ts`, whose constants these reuse.
 */

export { ID_MESSAGE, ID_PATTERN, UTILITY_TYPES };
export const idField = () => z.string().regex(ID_PATTERN, ID_MESSAGE);
export const isoDateField = () => z.string().regex(DATE_PATTERN, DATE_MESSAGE);
export const utilityTypeField = () => z.enum(UTILITY_TYPES);
/** Text with something in it once trimmed. */
export const nonEmptyField = () => z.string().trim().min(1, REQUIRED_MESSAGE);
