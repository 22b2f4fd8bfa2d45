import '../../record-import-kinds.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { IMPORT_ADAPTER_OPERATIONS, IMPORTS_OPERATIONS } from '../../../imports/index.ts';

/**
 * The automation function's import operations (the wizard's steps, the one-call consumption upload and
 * their reads), loaded on the first call of one with the planners of every kind of record import.
 */
export const LATER_OPERATIONS: Operations = { ...IMPORTS_OPERATIONS, ...IMPORT_ADAPTER_OPERATIONS };
