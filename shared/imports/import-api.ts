import * as z from 'zod';
import { onFirstUse } from '../schemas/on-first-use.ts';
import { IMPORT_TYPES } from './import-types.ts';

/** The largest file an import takes: the size is declared when the upload URL is asked for, and signed. */
export const IMPORT_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/*
 * Built on first use: the imports area declares the two queries for its routes, so every function serving
 * them would otherwise build these when it starts.
 */
export const importUploadQuery = onFirstUse(() =>
  z.object({
    type: z.enum(IMPORT_TYPES, { error: `Must be one of ${IMPORT_TYPES.join(', ')}` }),
    importTemplateId: z
      .string()
      .regex(/^[0-9a-f]{24}$/, 'Must be a valid id')
      .optional(),
    fileName: z.string().trim().min(1).max(200).optional(),
    size: z.coerce
      .number({ error: 'Give the file size in bytes' })
      .int()
      .min(1, 'The file is empty')
      .max(IMPORT_UPLOAD_MAX_BYTES, 'The file is larger than 100 MB'),
  }),
);

export const importItemsQuery = onFirstUse(() =>
  z.object({
    stage: z.enum(['preview', 'import', 'rollback']).default('preview'),
    outcome: z.enum(['create', 'update', 'unchanged', 'error']).optional(),
    page: z.coerce.number().int().min(0).max(100_000).default(0),
  }),
);

/** The header as a template remembers it: names trimmed and lower-cased, joined. */
export const headerKeyOf = (header: readonly string[]): string =>
  header.map((h) => h.trim().toLowerCase()).join('\u001f');
