import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import type { TargetScope } from '../../shared/schemas/targets.ts';
import { findResource, type ResourceDecl } from '../../shared/system/resources.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { findPortfolio, listTargets, type StoredTarget } from './target-repository.ts';

export interface ScopeRef {
  scope: TargetScope;
  scopeId?: string;
}

const live = <T extends StoredItem>(item: T | undefined) =>
  item && item.deleted !== true ? item : undefined;

/**
 * Whether a caller may read (or change) what a target covers: the company only for those who read the
 * whole company; an entity or a site by their grants, as its own pages rule; a portfolio when they reach
 * every site in it, as the portfolio's own routes rule. A scope that is gone is reachable by nobody.
 */
export async function mayReachScope(
  caller: Caller,
  ref: ScopeRef,
  access: 'read' | 'write',
  resolver: LineageResolver = new LineageResolver(caller.companyId, caller),
): Promise<boolean> {
  if (ref.scope === 'company') return isCompanyWide(caller);
  const id = ref.scopeId;
  if (!id) return false;
  if (ref.scope === 'portfolio') {
    const group = live(await findPortfolio(caller.companyId, id));
    if (!group) return false;
    if (group.assetIds.length === 0) return isCompanyWide(caller);
    return mayAccessItem(findResource('asset-groups') as ResourceDecl, caller, group, access, resolver);
  }
  const type = ref.scope === 'entity' ? 'entities' : 'assets';
  const item = live(await resolver.item(type, id));
  if (!item) return false;
  return canAccessItem(caller, access, await resolver.complete(type, item));
}

/** The live targets whose scope the caller may read. */
export async function readableTargets(caller: Caller): Promise<StoredTarget[]> {
  const resolver = new LineageResolver(caller.companyId, caller);
  const out: StoredTarget[] = [];
  for (const t of await listTargets(caller.companyId)) {
    if (t.deleted === true) continue;
    if (await mayReachScope(caller, t, 'read', resolver)) out.push(t);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a._id.localeCompare(b._id));
}
