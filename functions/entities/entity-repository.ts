/**
 * | pattern                          | key condition                           | index |
 * | -------------------------------- | --------------------------------------- | ----- |
 * | every entity of a company        | pk = C#{companyId}#entities             | table |
 * | one entity by id                 | pk = C#{companyId}#entities, sk = id    | table |
 * | write an entity (generic layer)  | pk = C#{companyId}#entities, sk = id    | table |
 *
 * A company's entities are few (tens), so the hierarchy is always read whole.
 */
import type * as z from 'zod';
import type { entitySchema } from '../../shared/schemas/entity.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredEntity = Stored<z.input<typeof entitySchema>>;

export const entitiesRef = (companyId: string): CollectionRef => declaredRef('entities', { companyId });

const toEntity = (item: StoredItem): StoredEntity =>
  storedRecord<StoredEntity>('entity', item, ['legalName']);

/** The parent an entity names, null at the top of the tree. */
export const parentIdOf = (item: StoredItem): string | null =>
  typeof item.parentEntityId === 'string' ? item.parentEntityId : null;

/** Every entity of a company, deleted ones included. */
export async function allEntities(companyId: string): Promise<StoredEntity[]> {
  return (await queryAll(entitiesRef(companyId).pk)).map(toEntity);
}

/** An entity as stored, deleted or not. */
export async function findStoredEntity(companyId: string, id: string): Promise<StoredEntity | undefined> {
  const item = await getItem(entitiesRef(companyId).pk, id);
  return item ? toEntity(item) : undefined;
}
