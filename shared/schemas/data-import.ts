import * as z from 'zod';
import { IMPORT_STATUSES, IMPORT_TYPES } from '../imports/import-types.ts';
import { idSchema } from './common.ts';

/**
 * An import's fields as the generic list filters and describes them: imports are written by the import
 * calls and worker only, so this names what they store rather than what a client may send.
 */
export const importSchema = z.object({
  type: z.enum(IMPORT_TYPES),
  importTemplateId: idSchema.optional(),
  fileName: z.string().optional(),
  accountId: idSchema.optional(),
  status: z.enum(IMPORT_STATUSES).default('pending'),
});
