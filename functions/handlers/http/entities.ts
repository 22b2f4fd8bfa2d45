import { httpFunction } from '../../middleware/http-function.ts';
import { ENTITY_IMPORT_OPERATIONS } from '../../services/entity-import-service.ts';
import { ENTITY_STRUCTURE_OPERATIONS } from '../../services/entity-structure-service.ts';
import { ENTITY_WRITE_OPERATIONS } from '../../services/entity-write-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/entities.ts';

export const handler = httpFunction('entities', {
  ...GENERIC_OPERATIONS,
  ...ENTITY_IMPORT_OPERATIONS,
  ...ENTITY_STRUCTURE_OPERATIONS,
  ...ENTITY_WRITE_OPERATIONS,
});
