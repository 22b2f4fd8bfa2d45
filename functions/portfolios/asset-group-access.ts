import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { findResource, type ResourceDecl } from '../../shared/system/resources.ts';
import { findAssets, type StoredAsset } from '../assets/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { forbidden, formError, notFound } from '../core/lib/errors.ts';
import { findGroup, groupsRef, type StoredGroup } from './asset-group-repository.ts';

export { groupsRef };

/** The pieces every asset group call needs: its resource, collections, and access to a group and assets. */
export function groupsResource(): ResourceDecl {
  const decl = findResource('asset-groups');
  if (!decl) throw new Error('The asset-groups resource is not declared');
  return decl;
}

/** A live group the caller may read (else 404), or change (else 403). */
export async function loadGroup(caller: Caller, id: string, access: 'read' | 'write'): Promise<StoredGroup> {
  const group = await findGroup(caller.companyId, id);
  if (!group) throw notFound();
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
export async function readableAssets(caller: Caller, ids: readonly string[]): Promise<StoredAsset[]> {
  const found = await findAssets(caller.companyId, ids);
  const assets = ids.map((id) => found.get(id)).filter((a): a is StoredAsset => !!a);
  if (isCompanyWide(caller)) return assets;
  const resolver = new LineageResolver(caller.companyId, caller);
  const assetsDecl = findResource('assets') as ResourceDecl;
  const out: StoredAsset[] = [];
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

/** An asset's floor area in m², as it is stored whichever unit it was entered in. */
export function floorAreaM2(asset: StoredItem): number | null {
  return typeof asset.floorArea === 'number' && Number.isFinite(asset.floorArea) ? asset.floorArea : null;
}
