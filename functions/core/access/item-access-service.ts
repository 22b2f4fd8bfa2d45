import type { Caller } from '../../../shared/access/caller.ts';
import { canAccessItem, type ItemLineage, lineageOf } from '../../../shared/access/item-access.ts';
import { canUseRoute, isCompanyWide } from '../../../shared/access/route-access.ts';
import type { ReadLists } from '../../../shared/access/widget-access.ts';
import { findResource, type ItemType, type ResourceDecl } from '../../../shared/system/resources.ts';
import type { ItemCheck } from '../../../shared/system/routes.ts';
import { getItem, queryAll, type StoredItem } from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';
import { forbidden, notFound } from '../lib/errors.ts';

const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

/**
 * Finds where items sit in a company's hierarchy (account → asset → entity → parent entities), reading
 * each item at most once. One resolver serves one request: a list of a thousand readings of the same
 * account reads that account once.
 */
export class LineageResolver {
  private readonly companyId: string;
  /**
   * Whether the entity side of a lineage can change the answer: only for a caller holding entity grants.
   * Without them the check needs the item alone, so the asset and the entity tree are not read.
   */
  private readonly needsEntities: boolean;
  private readonly items = new Map<string, Promise<StoredItem | undefined>>();
  private entityParents?: Promise<Map<string, string | undefined>>;

  constructor(companyId: string, caller?: Pick<Caller, 'grants'>) {
    this.companyId = companyId;
    const e = caller?.grants.entities;
    this.needsEntities = e === undefined || e.read.length > 0 || e.write.length > 0;
  }

  item(type: ItemType, id: string): Promise<StoredItem | undefined> {
    const key = `${type}/${id}`;
    let found = this.items.get(key);
    if (!found) {
      found = getItem(keys.collection({ companyId: this.companyId }, type), id);
      this.items.set(key, found);
    }
    return found;
  }

  private async ancestors(entityId: string | undefined): Promise<string[]> {
    if (!entityId) return [];
    this.entityParents ??= queryAll(keys.collection({ companyId: this.companyId }, 'entities')).then(
      (entities) => new Map(entities.map((e) => [e._id, str(e.parentEntityId)])),
    );
    const parents = await this.entityParents;
    const out: string[] = [];
    let next = parents.get(entityId);
    // Bounded, so a cycle in bad data cannot loop forever.
    while (next && !out.includes(next) && out.length < 20) {
      out.push(next);
      next = parents.get(next);
    }
    return out;
  }

  /** The full lineage of an item already in hand. */
  async complete(type: ItemType, item: StoredItem): Promise<ItemLineage> {
    const base = lineageOf(type, item._id, item);
    if (!this.needsEntities) return base;
    if (type === 'accounts' && !base.entityId && base.assetId) {
      base.entityId = str((await this.item('assets', base.assetId))?.entityId);
    }
    return { ...base, entityAncestors: await this.ancestors(base.entityId) };
  }

  /** The lineage of an item by id; undefined when the company has no such item. */
  async lineage(type: ItemType, id: string): Promise<ItemLineage | undefined> {
    const item = await this.item(type, id);
    return item ? this.complete(type, item) : undefined;
  }
}

/**
 * Whether the caller may read or write an item of a resource: by the item's own place in the hierarchy
 * (entities, assets, accounts), by the asset or account it hangs off (`parent`), or, for resources with
 * neither, by the route permission alone.
 */
export async function mayAccessItem(
  resource: ResourceDecl,
  caller: Caller,
  item: StoredItem,
  access: 'read' | 'write',
  resolver: LineageResolver = new LineageResolver(caller.companyId, caller),
): Promise<boolean> {
  if (isCompanyWide(caller)) return true;
  if (resource.itemType)
    return canAccessItem(caller, access, await resolver.complete(resource.itemType, item));
  const parent = resource.parent;
  if (!parent) return true;
  const value = item[parent.field];
  const ids = (Array.isArray(value) ? value : [value]).filter((v): v is string => str(v) !== undefined);
  if (ids.length === 0) return parent.whenMissing ? canUseRoute(parent.whenMissing, caller) : false;
  for (const id of ids) {
    const lineage = await resolver.lineage(parent.type, id);
    if (!lineage || !canAccessItem(caller, access, lineage)) return false;
  }
  return true;
}

/**
 * A route's declared item check, made before its operation runs: an absent or unreadable item is 404 (its
 * existence is not revealed), a readable one without write access is 403. An item of a resource that
 * hangs off an asset or account is judged by `mayAccessItem`, the same rule its operation applies.
 */
export async function enforceItemCheck(
  check: ItemCheck,
  caller: Caller,
  params: Readonly<Record<string, string>>,
): Promise<void> {
  const id = params[check.param];
  if (!id) throw notFound();
  const resolver = new LineageResolver(caller.companyId, caller);
  if (check.resource !== undefined && check.resource !== check.type) {
    const resource = findResource(check.resource);
    if (!resource) throw new Error(`Item check on undeclared resource ${check.resource}`);
    const item = await getItem(keys.collection({ companyId: caller.companyId }, resource.name), id);
    if (!item || !(await mayAccessItem(resource, caller, item, 'read', resolver))) throw notFound();
    if (check.access === 'write' && !(await mayAccessItem(resource, caller, item, 'write', resolver)))
      throw forbidden();
    return;
  }
  const lineage = await resolver.lineage(check.type, id);
  if (!lineage) throw notFound();
  if (isCompanyWide(caller)) return;
  if (!canAccessItem(caller, 'read', lineage)) throw notFound();
  if (check.access === 'write' && !canAccessItem(caller, 'write', lineage)) throw forbidden();
}

/**
 * The ids a caller may read, per type (02 §6), for widget data and item pickers. Company users get
 * undefined: they read everything. An asset group is readable when every one of its assets is.
 */
export async function readListsOf(caller: Caller): Promise<ReadLists | undefined> {
  if (isCompanyWide(caller)) return undefined;
  const all = (type: string) => queryAll(keys.collection({ companyId: caller.companyId }, type));
  const [entities, assets, accounts, groups] = await Promise.all([
    all('entities'),
    all('assets'),
    all('accounts'),
    all('asset-groups'),
  ]);
  const resolver = new LineageResolver(caller.companyId, caller);
  const readable = async (type: ItemType, items: StoredItem[]) => {
    const out: string[] = [];
    for (const item of items) {
      if (item.deleted === true) continue;
      if (canAccessItem(caller, 'read', await resolver.complete(type, item))) out.push(item._id);
    }
    return out;
  };
  const assetIds = await readable('assets', assets);
  const groupIds = groups
    .filter((g) => g.deleted !== true && Array.isArray(g.assetIds) && g.assetIds.length > 0)
    .filter((g) => (g.assetIds as unknown[]).every((id) => typeof id === 'string' && assetIds.includes(id)))
    .map((g) => g._id);
  return {
    entities: await readable('entities', entities),
    assets: assetIds,
    accounts: await readable('accounts', accounts),
    assetGroups: groupIds,
  };
}
