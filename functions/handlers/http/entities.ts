import { ENTITIES_AREA } from '../../../shared/system/areas/entities.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { ENTITY_IMPORT_OPERATIONS } from '../../entities/entity-import-service.ts';
import { ENTITY_STRUCTURE_OPERATIONS } from '../../entities/entity-structure-service.ts';
import { ENTITY_WRITE_OPERATIONS } from '../../entities/entity-write-service.ts';
import '../../../shared/system/resource-schemas/entities.ts';

export const handler = httpFunction('entities', [ENTITIES_AREA], {
  ...GENERIC_OPERATIONS,
  ...ENTITY_IMPORT_OPERATIONS,
  ...ENTITY_STRUCTURE_OPERATIONS,
  ...ENTITY_WRITE_OPERATIONS,
});
