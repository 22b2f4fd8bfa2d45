/** The import kinds a spreadsheet dropped in a watched folder may be. */
export const FOLDER_IMPORT_TYPES = [
  'monthly-consumption',
  'half-hourly-wide',
  'half-hourly-long',
  'sites',
  'entities',
  'meters',
] as const;

/**
 * The kinds of import, apart from what each reads (`import-mapping.ts`): the imports area declares its
 * routes' queries with them, and every function serving those routes should not load the mapping code.
 */
export const IMPORT_TYPES = [...FOLDER_IMPORT_TYPES, 'contracts', 'readings', 'invoices'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** pending: waiting for its file or its mapping; processing: the file being read or imported. */
export const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'error', 'rolled-back'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
