import type { AuthKind } from '../../access/route-rules.ts';
import { IMPORT_MAX_BODY_BYTES } from '../../constants.ts';
import type { HttpRoute, ItemCheck } from '../routes.ts';
import { declaredResource, routesOf } from './route-builder.ts';

const entities = declaredResource('entities');
const READ = entities.read;
const WRITE = entities.write;
const imports = declaredResource('imports');
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
export const ENTITY_ROUTES: readonly HttpRoute[] = [
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
  route('POST', '/entities/import', 'entities.import', IMPORT, { maxBodyBytes: IMPORT_MAX_BODY_BYTES }),
  route('POST', '/entities/import-rollback', 'entities.importRollback', IMPORT),
];
