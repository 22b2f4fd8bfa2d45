/**
 * | pattern                         | key condition                               | index |
 * | ------------------------------- | ------------------------------------------- | ----- |
 * | one group by id                 | pk = C#{companyId}#asset-groups, sk = id    | table |
 * | write a group                   | pk = C#{companyId}#asset-groups, sk = id    | table |
 * | a page of a company's groups    | generic list of the declared collection     | table |
 *
 * A group's sites are read through the assets area; their meters, and the group's own roll-up of their figures,
 * through the accounts area.
 */
import type * as z from 'zod';
import type { assetGroupSchema } from '../../shared/schemas/asset-group.ts';
import { type CollectionRef, declaredRef, getItem, type StoredItem } from '../core/data/item-repository.ts';
import { live, type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredGroup = Stored<z.input<typeof assetGroupSchema>>;

export const groupsRef = (companyId: string): CollectionRef => declaredRef('asset-groups', { companyId });

export const toGroup = (item: StoredItem): StoredGroup =>
  storedRecord<StoredGroup>('asset group', item, ['name']);

/** A live group of the company, or undefined. */
export async function findGroup(companyId: string, id: string): Promise<StoredGroup | undefined> {
  const item = await getItem(groupsRef(companyId).pk, id);
  return live(item ? toGroup(item) : undefined);
}
