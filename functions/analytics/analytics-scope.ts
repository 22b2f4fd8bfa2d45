import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import type { MeterUser } from '../../shared/schemas/account.ts';
import { isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { findAccount, meterUserOf, utilityOf } from '../accounts/index.ts';
import { readableOf } from '../core/access/item-access-service.ts';
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import { getItem, type StoredItem } from '../core/data/item-repository.ts';
import { notFound } from '../core/lib/errors.ts';
import { scopeCollectionPk } from './analytics-repository.ts';

export type ScopeKind = 'company' | 'portfolio' | 'entity' | 'site' | 'meter';

export interface SiteRef {
  _id: string;
  siteName?: string;
}

export interface MeterRef {
  _id: string;
  assetId?: string;
  utilityType: UtilityType;
  /** Who uses the meter's supply, when set. */
  meterUser?: MeterUser;
}

/** What one request may count, and where its figures are read from. */
export interface ReadScope {
  kind: ScopeKind;
  /** The site or portfolio asked for. */
  id?: string;
  name?: string;
  /** The company's own roll-up holds the answer: the caller reads the whole company. */
  wholeCompany: boolean;
  /**
   * The portfolio's own roll-up holds the answer: the caller reads every site of it and the answer is not
   * broken down by site.
   */
  portfolioRollup?: string;
  /** Sites read whole, from their roll-ups. */
  sites: SiteRef[];
  /** Meters the caller may read on sites they may not: read from the meters' own months. */
  meters: MeterRef[];
  /** The figures are narrowed to the sites and meters the caller may read. */
  restricted: boolean;
}

export interface ScopeAsk {
  assetId?: string;
  assetGroupId?: string;
  entityId?: string;
  /** The answer lists sites one by one, so a company-wide scope needs its sites named. */
  bySite?: boolean;
}

const live = (item: StoredItem | undefined) => (item && item.deleted !== true ? item : undefined);
const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
const siteRef = (a: StoredItem): SiteRef => ({
  _id: a._id,
  ...(text(a.siteName) ? { siteName: String(a.siteName) } : {}),
});

const granted = (caller: Caller, kind: 'entities' | 'assets' | 'accounts') => [
  ...new Set([...caller.grants[kind].read, ...caller.grants[kind].write]),
];

/**
 * The sites a caller without company-wide access may read. Only an entity grant reaches sites beyond the
 * granted ones, so only then are the company's sites listed; otherwise the granted ones are read by id.
 */
async function readableSites(caller: Caller): Promise<StoredItem[]> {
  const pk = scopeCollectionPk(caller.companyId, 'assets');
  if (granted(caller, 'entities').length === 0) {
    const found = await getItems(pk, granted(caller, 'assets'));
    return [...found.values()].filter((a) => a.deleted !== true);
  }
  // An entity grant reaches every site below it: the access layer works that out once per access version.
  const readable = await readableOf(caller);
  const found = await getItems(pk, readable ? readable.assets : []);
  return [...found.values()].filter((a) => a.deleted !== true);
}

/**
 * Meters granted one by one on sites the caller may not read whole. A sub-meter whose parent is counted
 * is left out, as the parent's figures already hold it.
 */
async function readableMeters(caller: Caller, sites: ReadonlySet<string>): Promise<MeterRef[]> {
  const ids = granted(caller, 'accounts');
  if (ids.length === 0) return [];
  const found = await getItems(scopeCollectionPk(caller.companyId, 'accounts'), ids);
  const accounts = [...found.values()].filter(
    (a) => a.deleted !== true && !(typeof a.assetId === 'string' && sites.has(a.assetId)),
  );
  const counted = new Set(accounts.map((a) => a._id));
  return accounts
    .filter((a) => !(isSubMeter(a) && counted.has(String(a.parentAccountId))))
    .map((a) => {
      const meterUser = meterUserOf(a);
      return {
        _id: a._id,
        assetId: text(a.assetId),
        utilityType: utilityOf(a),
        ...(meterUser ? { meterUser } : {}),
      };
    });
}

/** An entity and every live entity below it, however deep; undefined when the entity is not live. */
async function entityTree(
  companyId: string,
  entityId: string,
): Promise<{ entity: StoredItem; ids: Set<string> } | undefined> {
  const entities = await projectAll(scopeCollectionPk(companyId, 'entities'), [
    'legalName',
    'parentEntityId',
  ]);
  const entity = entities.find((e) => e._id === entityId);
  if (!entity) return undefined;
  const children = new Map<string, string[]>();
  for (const e of entities) {
    const parent = text(e.parentEntityId);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), e._id]);
  }
  const ids = new Set([entityId]);
  const stack = [entityId];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop() as string) ?? []) {
      // A cycle in stored data ends the walk rather than looping.
      if (ids.has(child)) continue;
      ids.add(child);
      stack.push(child);
    }
  }
  return { entity, ids };
}

function entityScope(entity: StoredItem, sites: SiteRef[], restricted: boolean): ReadScope {
  return {
    kind: 'entity',
    id: entity._id,
    ...(text(entity.legalName) ? { name: String(entity.legalName) } : {}),
    wholeCompany: false,
    sites,
    meters: [],
    restricted,
  };
}

async function companyWideScope(caller: Caller, ask: ScopeAsk): Promise<ReadScope> {
  const companyId = caller.companyId;
  const assetsPk = scopeCollectionPk(companyId, 'assets');
  if (ask.entityId) {
    const tree = await entityTree(companyId, ask.entityId);
    if (!tree) throw notFound();
    const assets = await projectAll(assetsPk, ['siteName', 'entityId']);
    const sites = assets.filter((a) => tree.ids.has(String(a.entityId)));
    return entityScope(tree.entity, sites.map(siteRef), false);
  }
  if (ask.assetId) {
    const asset = live(await getItem(assetsPk, ask.assetId));
    if (!asset) throw notFound();
    return siteScope(asset, [siteRef(asset)], [], false);
  }
  if (ask.assetGroupId) {
    const group = live(await getItem(scopeCollectionPk(companyId, 'asset-groups'), ask.assetGroupId));
    if (!group) throw notFound();
    const ids = assetIdsOf(group);
    // The portfolio's roll-up counts every site it names, as the company's counts every site it had: the
    // sites themselves are read only to name them, which costs a read per site.
    if (!ask.bySite)
      return portfolioScope(
        group,
        ids.map((_id) => ({ _id })),
        false,
        true,
      );
    const found = await getItems(assetsPk, ids);
    const sites = [...found.values()].filter((a) => a.deleted !== true).map(siteRef);
    return portfolioScope(group, sites, false, false);
  }
  const sites = ask.bySite ? (await projectAll(assetsPk, ['siteName'])).map(siteRef) : [];
  return { kind: 'company', wholeCompany: !ask.bySite, sites, meters: [], restricted: false };
}

const assetIdsOf = (group: StoredItem): string[] =>
  Array.isArray(group.assetIds) ? group.assetIds.filter((id): id is string => typeof id === 'string') : [];

function siteScope(asset: StoredItem | undefined, sites: SiteRef[], meters: MeterRef[], restricted: boolean) {
  const id = asset?._id ?? meters[0]?.assetId;
  return {
    kind: 'site' as const,
    ...(id ? { id } : {}),
    ...(text(asset?.siteName) ? { name: String(asset?.siteName) } : {}),
    wholeCompany: false,
    sites,
    meters,
    restricted,
  };
}

/** `whole`: the caller counts every site of the portfolio, so its own roll-up answers. */
function portfolioScope(group: StoredItem, sites: SiteRef[], restricted: boolean, whole: boolean): ReadScope {
  return {
    kind: 'portfolio',
    id: group._id,
    ...(text(group.name) ? { name: String(group.name) } : {}),
    wholeCompany: false,
    ...(whole ? { portfolioRollup: group._id } : {}),
    sites,
    meters: [],
    restricted,
  };
}

/**
 * What a caller may count for a request. Company-wide callers read the company roll-up, or the roll-ups
 * of the site or portfolio asked for. Others count only the sites and meters they may read, never the
 * company's roll-up: a site or portfolio they may not read is not found, as for any hidden item, and a
 * portfolio is readable only when every site in it is (as its own routes rule).
 */
export async function resolveScope(caller: Caller, ask: ScopeAsk): Promise<ReadScope> {
  if (isCompanyWide(caller)) return companyWideScope(caller, ask);
  const sites = await readableSites(caller);
  const siteIds = new Set(sites.map((s) => s._id));
  const meters = await readableMeters(caller, siteIds);
  if (ask.assetId) {
    const asset = sites.find((s) => s._id === ask.assetId);
    const own = meters.filter((m) => m.assetId === ask.assetId);
    if (!asset && own.length === 0) throw notFound();
    return siteScope(asset, asset ? [siteRef(asset)] : [], own, true);
  }
  if (ask.assetGroupId) {
    const pk = scopeCollectionPk(caller.companyId, 'asset-groups');
    const group = live(await getItem(pk, ask.assetGroupId));
    const ids = group ? assetIdsOf(group) : [];
    if (!group || ids.length === 0 || !ids.every((id) => siteIds.has(id))) throw notFound();
    // Every site is readable (else not found), and readable sites are live: the portfolio's roll-up answers.
    return portfolioScope(group, sites.filter((s) => ids.includes(s._id)).map(siteRef), true, !ask.bySite);
  }
  if (ask.entityId) {
    // Only the entity's sites the caller may read count; an entity with none of them is not found.
    const tree = await entityTree(caller.companyId, ask.entityId);
    const own = tree ? sites.filter((s) => tree.ids.has(String(s.entityId))) : [];
    if (!tree || own.length === 0) throw notFound();
    return entityScope(tree.entity, own.map(siteRef), true);
  }
  return { kind: 'company', wholeCompany: false, sites: sites.map(siteRef), meters, restricted: true };
}

/** The live portfolios of a company that hold a site. */
export async function portfoliosOfSite(companyId: string, assetId: string): Promise<SiteRef[]> {
  const groups = await projectAll(scopeCollectionPk(companyId, 'asset-groups'), ['name', 'assetIds']);
  return groups
    .filter((g) => assetIdsOf(g).includes(assetId))
    .map((g) => ({ _id: g._id, ...(text(g.name) ? { siteName: String(g.name) } : {}) }));
}

/**
 * One meter as a scope: a caller reading the whole company may read any live meter of it; anyone else
 * a meter on a site they may read, or one granted to them. Any other meter is not found, as for any
 * hidden item.
 */
export async function meterScope(caller: Caller, accountId: string): Promise<ReadScope> {
  const account = await findAccount(caller.companyId, accountId);
  if (!account) throw notFound();
  const assetId = typeof account.assetId === 'string' ? account.assetId : undefined;
  const meterUser = meterUserOf(account);
  const meter = {
    _id: accountId,
    ...(assetId ? { assetId } : {}),
    utilityType: utilityOf(account),
    ...(meterUser ? { meterUser } : {}),
  };
  let restricted = false;
  if (!isCompanyWide(caller)) {
    const readable = await resolveScope(caller, {});
    const onSite = assetId !== undefined && readable.sites.some((s) => s._id === assetId);
    if (!onSite && !readable.meters.some((m) => m._id === accountId)) throw notFound();
    restricted = true;
  }
  return {
    kind: 'meter',
    id: accountId,
    ...(typeof account.name === 'string' && account.name ? { name: account.name } : {}),
    wholeCompany: false,
    sites: [],
    meters: [meter],
    restricted,
  };
}
