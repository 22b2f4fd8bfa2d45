import * as z from 'zod';

/** A 24-hex identifier whose leading digits are its creation time, so ids sort in creation order. */
export const idSchema = z.string().regex(/^[0-9a-f]{24}$/, 'Must be a valid id');
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date as YYYY-MM-DD');
export const nonEmpty = z.string().trim().min(1, 'This field is required');

export const UTILITY_TYPES = ['electricity', 'gas', 'water', 'waste', 'heating', 'cooling', 'solar'] as const;
export const utilityTypeSchema = z.enum(UTILITY_TYPES);
export type UtilityType = z.infer<typeof utilityTypeSchema>;

/** Fields the server owns on every stored item; clients never write them. */
export const SERVER_FIELDS = [
  '_id',
  'companyId',
  'createdAt',
  'updatedAt',
  'createdBy',
  'deleted',
  'deletedAt',
] as const;
