/**
 * | pattern                      | key condition                    | index |
 * | ---------------------------- | -------------------------------- | ----- |
 * | one supplier by id           | pk = G#suppliers, sk = id        | table |
 * | every supplier               | pk = G#suppliers                 | table |
 * | replace an existing supplier | pk = G#suppliers, sk = id (must exist) | table |
 *
 * Suppliers are reference data shared by every company, so they live in the global partition.
 */
import type * as z from 'zod';
import type { supplierSchema } from '../../shared/schemas/supplier.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { declaredRef, getItem, queryAll } from '../core/data/item-repository.ts';
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

/** Every live supplier: the list a name read from a bill is matched against. */
export async function allSuppliers(): Promise<StoredSupplier[]> {
  const items = await queryAll(suppliersRef().pk);
  return items
    .filter((item) => typeof item.name === 'string')
    .map((item) => live(storedRecord<StoredSupplier>('supplier', item, ['name'])))
    .filter((s): s is StoredSupplier => s !== undefined);
}

/**
 * Changes a live supplier as stored when written, retried if another write lands in between (see
 * changeItem): a logo set while someone renames the supplier keeps the new name. Undefined when there is
 * no live supplier.
 */
export async function changeSupplier(
  id: string,
  change: (current: StoredSupplier) => StoredSupplier,
): Promise<StoredSupplier | undefined> {
  let gone = false;
  const changed = await changeItem(suppliersRef(), id, (item) => {
    const current = live(storedRecord<StoredSupplier>('supplier', item, ['name']));
    gone = current === undefined;
    return current && change(current);
  });
  return changed && !gone ? storedRecord<StoredSupplier>('supplier', changed.after, ['name']) : undefined;
}
