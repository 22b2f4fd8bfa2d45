import * as z from 'zod';
import { idField, isoDateField, UTILITY_TYPES, utilityTypeField } from './fields.ts';

export { UTILITY_TYPES };

/** A 24-hex identifier whose leading digits are its creation time, so ids sort in creation order. */
export const idSchema = idField();
export const isoDate = isoDateField();
export const nonEmpty = z.string().trim().min(1, 'This field is required');

export const utilityTypeSchema = utilityTypeField();
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
