import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { toSquareMetres } from '../../shared/domain/units.ts';
import { findResource, type ResourceDecl } from '../../shared/system/resources.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { getItems } from '../core/data/batch-reads.ts';
import { type CollectionRef, getItem, type StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { forbidden, formError, notFound } from '../core/lib/errors.ts';

/** The pieces every asset group call needs: its resource, collections, and access to a group and assets. */
export function groupsResource(): ResourceDecl {
  const decl = findResource('asset-groups');
  if (!decl) throw new Error('The asset-groups resource is not declared');
  return decl;
}

export function groupsRef(companyId: string): CollectionRef {
  const decl = groupsResource();
  return {
    pk: keys.collection({ companyId }, decl.name),
    indexes: decl.indexes ?? [],
    searchFields: decl.searchFields,
  };
}

export const assetsPk = (companyId: string) => keys.collection({ companyId }, 'assets');

/** A live group the caller may read (else 404), or change (else 403). */
export async function loadGroup(caller: Caller, id: string, access: 'read' | 'write'): Promise<StoredItem> {
  const group = await getItem(groupsRef(caller.companyId).pk, id);
  if (!group || group.deleted === true) throw notFound();
  const resolver = new LineageResolver(caller.companyId, caller);
  if (!(await mayAccessItem(groupsResource(), caller, group, 'read', resolver))) throw notFound();
  if (access === 'write' && !(await mayAccessItem(groupsResource(), caller, group, 'write', resolver))) {
    throw forbidden();
  }
  return group;
}

export const assetIdsOf = (group: StoredItem): string[] =>
  Array.isArray(group.assetIds) ? group.assetIds.filter((id): id is string => typeof id === 'string') : [];

/** Live assets by id, in the order asked, leaving out those missing, deleted or unreadable. */
export async function readableAssets(caller: Caller, ids: readonly string[]): Promise<StoredItem[]> {
  const found = await getItems(assetsPk(caller.companyId), ids);
  const assets = ids.map((id) => found.get(id)).filter((a): a is StoredItem => !!a && a.deleted !== true);
  if (isCompanyWide(caller)) return assets;
  const resolver = new LineageResolver(caller.companyId, caller);
  const assetsDecl = findResource('assets') as ResourceDecl;
  const out: StoredItem[] = [];
  for (const a of assets) if (await mayAccessItem(assetsDecl, caller, a, 'read', resolver)) out.push(a);
  return out;
}

/** Checks that every id names a live asset the caller can see: one bad id refuses them all. */
export async function requireAssets(
  caller: Caller,
  ids: readonly string[],
  field = 'assetIds',
): Promise<void> {
  const known = new Set((await readableAssets(caller, ids)).map((a) => a._id));
  const unknown = [...new Set(ids)].filter((id) => !known.has(id));
  if (unknown.length > 0) throw formError({ [field]: `No such asset: ${unknown.join(', ')}` });
}

/** An asset's floor area in m², whichever unit it was entered in. */
export function floorAreaM2(asset: StoredItem): number | null {
  if (typeof asset.floorArea !== 'number' || !Number.isFinite(asset.floorArea)) return null;
  return toSquareMetres(asset.floorArea, asset.floorAreaUnit === 'ft2' ? 'ft2' : 'm2');
}
