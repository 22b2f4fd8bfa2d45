import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import type { ScopeOption, Scopes } from '../../shared/schemas/responses/targets.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import type { OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import type { ScopeRef } from './target-access.ts';
import { listScopeItems } from './target-repository.ts';

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const idsOf = (group: StoredItem) =>
  Array.isArray(group.assetIds) ? group.assetIds.filter((id): id is string => typeof id === 'string') : [];

/** The name of what each target covers, by target id. */
export async function scopeNames(
  companyId: string,
  targets: readonly (ScopeRef & { _id: string })[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (targets.length === 0) return out;
  const { entities, portfolios, sites } = await listScopeItems(companyId);
  const names = {
    entity: new Map(entities.map((e) => [e._id, text(e.legalName)])),
    portfolio: new Map(portfolios.map((g) => [g._id, text(g.name)])),
    site: new Map(sites.map((s) => [s._id, text(s.siteName)])),
  };
  for (const t of targets) {
    const name = t.scope === 'company' ? 'Whole company' : names[t.scope].get(t.scopeId ?? '');
    if (name) out.set(t._id, name);
  }
  return out;
}

/** What the caller may set targets on: the scopes they may change. */
export async function writableScopes(caller: Caller): Promise<Scopes> {
  const { entities, portfolios, sites } = await listScopeItems(caller.companyId);
  const option = (item: StoredItem, field: string): ScopeOption => ({
    _id: item._id,
    name: text(item[field]),
  });
  const byName = (a: ScopeOption, b: ScopeOption) => a.name.localeCompare(b.name);
  if (isCompanyWide(caller)) {
    return {
      company: true,
      entities: entities.map((e) => option(e, 'legalName')).sort(byName),
      portfolios: portfolios
        .filter((g) => idsOf(g).length > 0)
        .map((g) => option(g, 'name'))
        .sort(byName),
      sites: sites.map((s) => option(s, 'siteName')).sort(byName),
    };
  }
  const resolver = new LineageResolver(caller.companyId, caller);
  const writable = async (type: 'entities' | 'assets', item: StoredItem) =>
    canAccessItem(caller, 'write', await resolver.complete(type, item));
  const okSites: StoredItem[] = [];
  for (const s of sites) if (await writable('assets', s)) okSites.push(s);
  const okEntities: StoredItem[] = [];
  for (const e of entities) if (await writable('entities', e)) okEntities.push(e);
  const siteIds = new Set(okSites.map((s) => s._id));
  return {
    company: false,
    entities: okEntities.map((e) => option(e, 'legalName')).sort(byName),
    portfolios: portfolios
      .filter((g) => idsOf(g).length > 0 && idsOf(g).every((id) => siteIds.has(id)))
      .map((g) => option(g, 'name'))
      .sort(byName),
    sites: okSites.map((s) => option(s, 'siteName')).sort(byName),
  };
}

export const scopesOperation = operation(
  {},
  async (ctx): Promise<OpResult> => ({
    body: await writableScopes(ctx.caller),
  }),
);
