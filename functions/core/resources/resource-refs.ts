import type { Caller } from '../../../shared/access/caller.ts';
import { findResource, type ResourceDecl } from '../../../shared/system/resources.ts';
import { type CollectionRef, declaredRef, type StoredItem } from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';
import { newId } from '../lib/ids.ts';

export function declaredResource(name: string): ResourceDecl {
  const r = findResource(name);
  if (!r) throw new Error(`Resource ${name} is not declared`);
  return r;
}

/** The company's collection of a declared resource, with its indexes and search fields. */
export const resourceRef = (companyId: string, name: string): CollectionRef =>
  declaredRef(name, { companyId });

/** Items that belong to one item (a site's documents, a project's files): no indexes, no search. */
export function childRef(companyId: string, resource: string, parentId: string, sub: string): CollectionRef {
  return { pk: keys.subCollection({ companyId }, resource, parentId, sub), indexes: [], searchFields: [] };
}

export function stampNew(caller: Caller, data: Record<string, unknown>): StoredItem {
  const now = new Date().toISOString();
  return {
    ...data,
    _id: newId(),
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
}
