import type { Caller } from '../../../shared/access/caller.ts';
import { canAccessItem, type ItemLineage, lineageOf } from '../../../shared/access/item-access.ts';
import { canUseRoute, isCompanyWide } from '../../../shared/access/route-access.ts';
import type { ReadLists } from '../../../shared/access/widget-access.ts';
import { compareOrderKeys } from '../../../shared/domain/order-key.ts';
import { findResource, type ItemType, type ResourceDecl } from '../../../shared/system/resources.ts';
import type { ItemCheck } from '../../../shared/system/routes.ts';
import { readAccessVersion } from '../data/access-version.ts';
import { readChangeMarks } from '../data/change-marks.ts';
import {
  allCollectionItems,
  collectionOrderField,
  getCollectionItem,
  orderedSortKey,
  type StoredItem,
} from '../data/item-repository.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import { keepReadable, type ReadableLists, readKeptReadable } from './readable-repository.ts';

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
  /** Whether its reads see every write finished before them (for answers kept past this request). */
  private readonly consistent: boolean;

  constructor(companyId: string, caller?: Pick<Caller, 'grants'>, opts: { consistent?: boolean } = {}) {
    this.companyId = companyId;
    this.consistent = opts.consistent === true;
    const e = caller?.grants.entities;
    this.needsEntities = e === undefined || e.read.length > 0 || e.write.length > 0;
  }

  item(type: ItemType, id: string): Promise<StoredItem | undefined> {
    const key = `${type}/${id}`;
    let found = this.items.get(key);
    if (!found) {
      found = getCollectionItem({ companyId: this.companyId }, type, id, { consistent: this.consistent });
      this.items.set(key, found);
    }
    return found;
  }

  private async ancestors(entityId: string | undefined): Promise<string[]> {
    if (!entityId) return [];
    this.entityParents ??= allCollectionItems({ companyId: this.companyId }, 'entities', {
      consistent: this.consistent,
    }).then((entities) => new Map(entities.map((e) => [e._id, str(e.parentEntityId)])));
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
  // Another member's own item (a notification) is nobody else's, administrators' included.
  if (resource.owner && item[resource.owner] !== caller.sub) return false;
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
    const item = await getCollectionItem({ companyId: caller.companyId }, resource.name, id);
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

/** What a granted caller may read, worked out once per access version. */
export interface Readable {
  /** Readable live items' ids per type, in key (creation) order. */
  entities: readonly string[];
  assets: readonly string[];
  accounts: readonly string[];
  assetGroups: readonly string[];
  sets: Readonly<Record<ItemType, ReadonlySet<string>>>;
  /** Readable sites in the sites' declared order (orderedSortKey of their name). */
  assetsInOrder: readonly string[];
}

const READABLE_CACHE_SIZE = 500;
/** Per company, user and grants: the access version it was worked out at, and the answer. */
const readableCache = new Map<string, { version: number; readable: Promise<Readable> }>();

/**
 * The readable sites a work-out read (consistently, whole), first in the sites' order: a list keeps them
 * rather than read them again one by one for its pages. `changes` is the `siteList` change mark read before
 * any of them was (change-marks.ts), `readAt` when (ms since the epoch).
 */
export interface WorkedOutSites {
  changes: number;
  readAt: number;
  sites: readonly StoredItem[];
}

/**
 * What the latest work-outs read, per caller key and access version, until a list of that caller takes
 * it: the first call after a grant or tree change is often not the list (the dashboard's figures, say).
 * A few callers' worth, so the process does not hold hundreds of callers' sites.
 */
const handedOn = new Map<string, { version: number; sites: WorkedOutSites }>();
const HANDED_ON_CALLERS = 20;

/**
 * Five pages of twenty. The copy of kept sites a fresh process starts from holds a few hundred sites of the
 * whole company at most (asset-list-copy-repository.ts): one caller's work-out should not fill it alone.
 */
const MAX_SITES_HANDED_ON = 100;

/**
 * Worked out from consistent reads made after the access version was read: an eventually consistent one
 * could miss a change that finished (and moved the version) just before, and the answer kept under the
 * new version would go on missing it.
 */
async function workOutReadable(
  caller: Caller,
  sitesRead: (sites: WorkedOutSites) => void,
): Promise<Readable> {
  const all = (type: string) =>
    allCollectionItems({ companyId: caller.companyId }, type, { consistent: true });
  // Read before any site, so the `siteList` journal names every site written after the sites handed on.
  const changes = (await readChangeMarks(caller.companyId)).marks.siteList ?? 0;
  const readAt = Date.now();
  const [entities, assets, accounts, groups] = await Promise.all([
    all('entities'),
    all('assets'),
    all('accounts'),
    all('asset-groups'),
  ]);
  const resolver = new LineageResolver(caller.companyId, caller, { consistent: true });
  const readable = async (type: ItemType, items: StoredItem[]) => {
    const out: StoredItem[] = [];
    for (const item of items) {
      if (item.deleted === true) continue;
      if (canAccessItem(caller, 'read', await resolver.complete(type, item))) out.push(item);
    }
    return out;
  };
  const readableAssets = await readable('assets', assets);
  const assetIds = readableAssets.map((a) => a._id);
  const assetSet = new Set(assetIds);
  const entityIds = (await readable('entities', entities)).map((e) => e._id);
  const accountIds = (await readable('accounts', accounts)).map((a) => a._id);
  const field = collectionOrderField({ companyId: caller.companyId }, 'assets');
  const placed = readableAssets.map((a) => ({
    id: a._id,
    place: orderedSortKey(field ? a[field] : '', a._id),
  }));
  placed.sort((a, b) => compareOrderKeys(a.place, b.place));
  const byId = new Map(readableAssets.map((a) => [a._id, a]));
  const sites = placed.slice(0, MAX_SITES_HANDED_ON).flatMap((p) => byId.get(p.id) ?? []);
  sitesRead({ changes, readAt, sites });
  return {
    entities: entityIds,
    assets: assetIds,
    accounts: accountIds,
    assetGroups: groups
      .filter((g) => g.deleted !== true && Array.isArray(g.assetIds) && g.assetIds.length > 0)
      .filter((g) => (g.assetIds as unknown[]).every((id) => typeof id === 'string' && assetSet.has(id)))
      .map((g) => g._id),
    sets: { entities: new Set(entityIds), assets: assetSet, accounts: new Set(accountIds) },
    assetsInOrder: placed.map((p) => p.id),
  };
}

const readableOfLists = (lists: ReadableLists): Readable => ({
  ...lists,
  sets: {
    entities: new Set(lists.entities),
    assets: new Set(lists.assets),
    accounts: new Set(lists.accounts),
  },
});

/**
 * What the caller may read at access version `version`: the copy kept in the table when it was worked out
 * at that version (by any process), else worked out from every entity, site, meter and portfolio and kept.
 * A fresh process so reads one small item rather than the company's whole hierarchy.
 */
async function keptOrWorkedOut(caller: Caller, version: number, key: string): Promise<Readable> {
  // The kept copy only spares the work: one that cannot be read is worked out instead.
  const kept = await readKeptReadable(caller.companyId, key).catch(() => undefined);
  if (kept?.version === version) return readableOfLists(kept.lists);
  const readable = await workOutReadable(caller, (sites) => {
    handedOn.delete(key);
    handedOn.set(key, { version, sites });
    if (handedOn.size > HANDED_ON_CALLERS) {
      const oldest = handedOn.keys().next().value;
      if (oldest !== undefined) handedOn.delete(oldest);
    }
  });
  const { entities, assets, accounts, assetGroups, assetsInOrder } = readable;
  // Worked out from reads made after `version` was read: a change they missed has moved it since. Keeping
  // it only spares other processes the work, so a refused write does not fail the call.
  await keepReadable(caller.companyId, key, version, {
    entities: [...entities],
    assets: [...assets],
    accounts: [...accounts],
    assetGroups: [...assetGroups],
    assetsInOrder: [...assetsInOrder],
  }).catch(() => undefined);
  return readable;
}

/**
 * What a granted caller may read. Company users get undefined: they read everything. `sitesRead` is
 * handed the readable sites the latest work-out of this answer read, once: by the first call that asks
 * for them (see `handedOn`). Kept in the process while the company's access version stands (it moves with grants, roles, memberships and the
 * entity/site/meter tree), so a caller's lists do not read the whole hierarchy on every call, and kept in
 * the table on the same terms, so a fresh process does not either.
 */
export async function readableOf(
  caller: Caller,
  opts: { sitesRead?: (sites: WorkedOutSites) => void } = {},
): Promise<Readable | undefined> {
  if (isCompanyWide(caller)) return undefined;
  const version = caller.accessVersion ?? (await readAccessVersion(caller.companyId));
  const key = [caller.companyId, caller.sub, caller.kind, JSON.stringify(caller.grants)].join('|');
  const hit = readableCache.get(key);
  let readable: Promise<Readable>;
  if (hit && hit.version === version) readable = hit.readable;
  else {
    readable = keptOrWorkedOut(caller, version, key);
    readableCache.delete(key);
    readableCache.set(key, { version, readable });
    readable.catch(() => readableCache.delete(key));
    if (readableCache.size > READABLE_CACHE_SIZE) {
      const oldest = readableCache.keys().next().value;
      if (oldest !== undefined) readableCache.delete(oldest);
    }
  }
  const answer = await readable;
  const handed = opts.sitesRead ? handedOn.get(key) : undefined;
  // Taken once; one of an older version is dropped, one of a newer version left for its own callers.
  if (handed && handed.version <= version) {
    handedOn.delete(key);
    if (handed.version === version) opts.sitesRead?.(handed.sites);
  }
  return answer;
}

/**
 * The ids a caller may read, per type (02 §6), for widget data and item pickers. Company users get
 * undefined: they read everything. An asset group is readable when every one of its assets is.
 */
export async function readListsOf(caller: Caller): Promise<ReadLists | undefined> {
  const readable = await readableOf(caller);
  if (!readable) return undefined;
  return {
    entities: [...readable.entities],
    assets: [...readable.assets],
    accounts: [...readable.accounts],
    assetGroups: [...readable.assetGroups],
  };
}
