import type { StoredItem } from './item-repository.ts';

/** What the generic operations stamp on every item of a collection beside its own fields. */
export type StoredMeta = {
  _id: string;
  companyId?: string;
  createdAt?: string;
  updatedAt?: string;
  createdBy?: string;
  updatedBy?: string;
  deleted?: boolean;
  deletedAt?: string;
  deletedBy?: string;
};

/**
 * A stored item of a schema. The schema's input type, not its output: items written by imports, the
 * demo data or an older release may lack fields the schema would fill with defaults today.
 */
export type Stored<T> = T & StoredMeta;

/**
 * Types a stored item after checking the fields its readers rely on. This check rather than a full schema
 * parse: lists map hundreds of items per answer, and a parse copies each one (and would refuse items
 * written before a rule was tightened, which must stay readable).
 */
export function storedRecord<T extends object>(
  kind: string,
  item: StoredItem,
  required: readonly (keyof T & string)[],
): Stored<T> {
  for (const field of required) {
    const value = item[field];
    if (value === undefined || value === null)
      throw new Error(`The stored ${kind} ${item._id} has no ${field}`);
  }
  return item as Stored<T>;
}

/** A deleted item reads as absent. */
export const live = <T extends { deleted?: boolean }>(item: T | undefined): T | undefined =>
  item && item.deleted !== true ? item : undefined;
