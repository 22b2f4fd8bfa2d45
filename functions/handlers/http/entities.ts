import { ENTITIES_AREA } from '../../../shared/system/areas/entities.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { ENTITY_STRUCTURE_OPERATIONS } from '../../entities/entity-structure-service.ts';

/**
 * The tree, search and reads are most of the function's calls: its writes and imports (and the entity
 * and address schemas they parse) load on the first call of one, so a cold start serving the tree does
 * not build them.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/entities.ts')).LATER_OPERATIONS;

/**
 * The entity schema is built on the first call of an operation not listed below, or of a list with
 * filters (they are typed by the schema).
 */
registerResourceSchemasLater('entities', () => import('../../../shared/system/resource-schemas/entities.ts'));

export const handler = httpFunction(
  'entities',
  [ENTITIES_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...ENTITY_STRUCTURE_OPERATIONS,
  },
  {
    later: laterOperations,
    withoutResourceSchemas: [
      'entities.structure',
      'entities.subtree',
      'entities.ultimateParent',
      'entities.search',
      'generic.get',
    ],
  },
);
