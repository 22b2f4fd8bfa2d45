/**
 * | pattern                      | key condition                    | index |
 * | ---------------------------- | -------------------------------- | ----- |
 * | one supplier by id           | pk = G#suppliers, sk = id        | table |
 * | replace an existing supplier | pk = G#suppliers, sk = id (must exist) | table |
 *
 * Suppliers are reference data shared by every company, so they live in the global partition.
 */
import type * as z from 'zod';
import type { supplierSchema } from '../../shared/schemas/portfolio.ts';
import { declaredRef, getItem, putItem } from '../core/data/item-repository.ts';
import { live, type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredSupplier = Stored<
  z.input<typeof supplierSchema> & {
    /** Object key of the uploaded logo; answers carry a signed link to it instead. */
    logoKey?: string;
    logoUrl?: string;
  }
>;

const suppliersRef = () => declaredRef('suppliers', {});

/** A live supplier, or undefined when there is none (or it was deleted). */
export async function findSupplier(id: string): Promise<StoredSupplier | undefined> {
  const item = await getItem(suppliersRef().pk, id);
  return live(item ? storedRecord<StoredSupplier>('supplier', item, ['name']) : undefined);
}

/** Replaces a supplier that exists; a missing one makes the write fail. */
export async function replaceSupplier(supplier: StoredSupplier): Promise<void> {
  await putItem(suppliersRef(), supplier, { mustExist: true });
}
