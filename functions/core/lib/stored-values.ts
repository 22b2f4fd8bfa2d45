import type { UtilityType } from '../../../shared/schemas/common.ts';
import { UTILITY_TYPES } from '../../../shared/schemas/mini-fields.ts';

/*
 * Reading the loose fields of a stored record (an address, a bill's values, its charge lines) by checking
 * what they hold, so a record written by an older version, an import or by hand is read as what it is
 * rather than trusted to have the shape the current code writes.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field holding a map of fields, or an empty map when it holds anything else (or is missing). */
export const objectOf = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

/** A field holding a list of maps of fields: the maps in it, or none when it is not a list. */
export const objectsOf = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter(isObject) : [];

/** A utility type a record names, or undefined when it names none we know. */
export const utilityTypeOf = (v: unknown): UtilityType | undefined => UTILITY_TYPES.find((t) => t === v);
