import type { Operations } from '../../../core/middleware/api-context.ts';
import { ENTITY_IMPORT_OPERATIONS } from '../../../entities/entity-import-service.ts';
import { ENTITY_WRITE_OPERATIONS } from '../../../entities/entity-write-service.ts';

/** The entities function's writes and imports, loaded on the first call of one. */
export const LATER_OPERATIONS: Operations = {
  ...ENTITY_IMPORT_OPERATIONS,
  ...ENTITY_WRITE_OPERATIONS,
};
