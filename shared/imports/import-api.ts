import * as z from 'zod/mini';
import { idField } from '../schemas/mini-fields.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';
import { IMPORT_TYPES } from './import-types.ts';

/** The largest file an import takes: the size is declared when the upload URL is asked for, and signed. */
export const IMPORT_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/*
 * Built on first use, with zod's small build: the imports area declares the two queries for its routes, so
 * every function serving them would otherwise build these, or read zod's full build, when it starts.
 */
export const importUploadQuery = onFirstUse(() =>
  z.object({
    type: z.enum(IMPORT_TYPES, { error: `Must be one of ${IMPORT_TYPES.join(', ')}` }),
    importTemplateId: z.optional(idField()),
    fileName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
    size: z.coerce
      .number({ error: 'Give the file size in bytes' })
      .check(
        z.int(),
        z.minimum(1, 'The file is empty'),
        z.maximum(IMPORT_UPLOAD_MAX_BYTES, 'The file is larger than 100 MB'),
      ),
  }),
);

export const importItemsQuery = onFirstUse(() =>
  z.object({
    stage: z._default(z.enum(['preview', 'import', 'rollback']), 'preview'),
    outcome: z.optional(z.enum(['create', 'update', 'unchanged', 'error'])),
    page: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(100_000)), 0),
  }),
);

/** The header as a template remembers it: names trimmed and lower-cased, joined. */
export const headerKeyOf = (header: readonly string[]): string =>
  header.map((h) => h.trim().toLowerCase()).join('\u001f');
