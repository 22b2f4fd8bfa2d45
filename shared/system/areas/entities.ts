import type { AuthKind } from '../../access/route-rules.ts';
import { IMPORT_MAX_BODY_BYTES } from '../../constants.ts';
import { importFileQuery } from '../../schemas/import-file-query.ts';
import { entitySearchQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import { ENTITIES_AREA_RESOURCES, ENTITIES_RESOURCE } from '../resources/entities.ts';
import { IMPORTS_RESOURCE } from '../resources/imports.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute, ItemCheck } from '../routes.ts';

const entities = ENTITIES_RESOURCE;
const READ = entities.read;
const WRITE = entities.write;
const imports = IMPORTS_RESOURCE;
const IMPORT = imports.write;

// Machines (report rendering) read what a page shows; they never write.
const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const item = (access: 'read' | 'write'): { item: ItemCheck } => ({
  item: { type: 'entities', param: 'id', access },
});
const GENERIC = { resource: 'entities' } as const;

const route = routesOf('entities');

/**
 * The company hierarchy (02 §7 Entities): its tree, subtrees and ultimate parents, search by legal name,
 * the new-entity wizard, and moves within the tree. Create, update and delete replace the generic calls
 * so that a parent must exist, the tree cannot gain a cycle, and nothing is left without its entity.
 * The CSV import and its rollback need the import permission (01 §6: entity import is for company_user).
 */
const ENTITY_ROUTES: readonly HttpRoute[] = [
  route('GET', '/entities/structure', 'entities.structure', READ, READS),
  route('GET', '/entities/{id}/structure', 'entities.subtree', READ, { ...READS, ...item('read') }),
  route('GET', '/entities/{id}/ultimate-parent', 'entities.ultimateParent', READ, {
    ...READS,
    ...item('read'),
  }),
  route('GET', '/entities/search', 'entities.search', READ, { ...READS, ...GENERIC }),
  route('POST', '/entities', 'entities.create', WRITE, GENERIC),
  route('POST', '/entities/from-wizard', 'entities.fromWizard', WRITE),
  route('PATCH', '/entities/{id}', 'entities.update', WRITE, { ...GENERIC, ...item('write') }),
  route('POST', '/entities/{id}/move', 'entities.move', WRITE, { ...GENERIC, ...item('write') }),
  route('DELETE', '/entities/{id}', 'entities.delete', WRITE, { ...GENERIC, ...item('write') }),
  route('POST', '/entities/import', 'entities.import', IMPORT, {
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  route('POST', '/entities/import-rollback', 'entities.importRollback', IMPORT),
];

/** Legal entities and their tree, and the entity import. */
export const ENTITIES_AREA: AreaDecl = {
  name: 'entities',
  resources: ENTITIES_AREA_RESOURCES,
  routes: withQueries([...ENTITY_ROUTES], {
    'GET /entities/search': entitySearchQuery,
  }),
};
