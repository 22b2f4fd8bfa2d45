import useSWR from 'swr';
import type { EntityNode } from '../../../shared/schemas/register.ts';
import type { ImportResult, ImportRollbackResult } from '../../../shared/schemas/register-imports.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type { Entity, EntitySearchHit } from '../../../shared/schemas/responses/entities.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export type { Entity, EntitySearchHit } from '../../../shared/schemas/responses/entities.ts';

/** One SWR key per call of the entity pages; changes revalidate keys that start with `/entities`. */
export const entityKeys = {
  structure: '/entities/structure',
  subtree: (id: string) => `/entities/${id}/structure`,
  entity: (id: string) => `/entities/${id}`,
  ultimateParent: (id: string) => `/entities/${id}/ultimate-parent`,
  search: (query: string) => `/entities/search?query=${encodeURIComponent(query)}&limit=100`,
} as const;

export const isEntityKey = (key: unknown) => typeof key === 'string' && key.startsWith('/entities');

export const useStructure = () => useSWR<ListAnswer<EntityNode>>(entityKeys.structure);
export const useSubtree = (id: string | undefined) => useSWR<EntityNode>(id ? entityKeys.subtree(id) : null);
export const useEntity = (id: string | undefined) => useSWR<Entity>(id ? entityKeys.entity(id) : null);
export const useUltimateParent = (id: string | undefined) =>
  useSWR<Entity>(id ? entityKeys.ultimateParent(id) : null);
export const useEntitySearch = (query: string) =>
  useSWR<ListAnswer<EntitySearchHit>>(query ? entityKeys.search(query) : null, { keepPreviousData: true });

export interface EntityOption {
  value: string;
  label: string;
  depth: number;
}

/**
 * The tree as a flat list in display order, each entity indented by its depth, for parent pickers. An
 * entity and its subsidiaries can be left out (`except`): an entity cannot move under itself.
 */
export function entityOptions(nodes: readonly EntityNode[], except?: string, depth = 0): EntityOption[] {
  return nodes.flatMap((n) =>
    n._id === except
      ? []
      : [
          { value: n._id, label: `${'\u00a0\u00a0'.repeat(depth * 2)}${n.legalName}`, depth },
          ...entityOptions(n.children, except, depth + 1),
        ],
  );
}

/** How many entities a tree holds, subsidiaries included. */
export function countEntities(nodes: readonly EntityNode[]): number {
  return nodes.reduce((n, node) => n + 1 + countEntities(node.children), 0);
}

export const ENTITY_FIELDS = [
  'legalName',
  'companyNumber',
  'parentEntityId',
  'address.streetAddress',
  'address.locality',
  'address.region',
  'address.postCode',
  'address.country',
] as const;

const ENTITY_READS = [(key: string) => isEntityKey(key)];
type Body = Record<string, unknown>;

/** POST /entities/from-wizard */
export const useCreateEntity = () =>
  useEndpoint(
    (api, body: Body) => api.post<Entity>('/entities/from-wizard', body),
    () => ENTITY_READS,
  );

/** PATCH /entities/{id}: a move changes the whole tree, so every entity read is stale. */
export const useUpdateEntity = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch<Entity>(`/entities/${id}`, body),
    () => ENTITY_READS,
  );

/** DELETE /entities/{id} */
export const useDeleteEntity = () =>
  useEndpoint(
    (api, id: string) => api.del(`/entities/${id}`),
    () => ENTITY_READS,
  );

/** POST /entities/import: a CSV file of entities. */
export const useImportEntities = () =>
  useEndpoint(
    (api, file: { fileName: string; csv: string }) => api.post<ImportResult>('/entities/import', file),
    () => ENTITY_READS,
  );

/** POST /entities/import-rollback */
export const useRollbackEntityImport = () =>
  useEndpoint(
    (api, batchId: string) => api.post<ImportRollbackResult>('/entities/import-rollback', { batchId }),
    () => ENTITY_READS,
  );
