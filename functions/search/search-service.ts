import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { SEARCH_MIN_CHARS } from '../../shared/constants.ts';
import type { SearchResult, SearchType } from '../../shared/schemas/register.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { getCollectionItems } from '../core/data/batch-reads.ts';
import { getCollectionItem, type StoredItem } from '../core/data/item-repository.ts';
import { formError } from '../core/lib/errors.ts';
import { utilityTypeOf } from '../core/lib/stored-values.ts';
import { type IndexEntry, queryEntries, searchKeys } from '../core/search-index/search-index-repository.ts';
import { ensureSearchIndex } from '../core/search-index/search-index-service.ts';
import { compact, PREFIX_LENGTH, RESOURCE_OF, TIERS, type Tier } from '../core/search-index/search-terms.ts';

/** Pages a restricted caller's search may read per tier before it settles for fewer results. */
const MAX_PAGES = 10;

interface Candidate {
  entry: IndexEntry;
  tier: Tier;
  exact: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const labelOf = (e: IndexEntry) =>
  String(e.doc.legalName ?? e.doc.siteName ?? e.doc.name ?? e.doc.meterPointNumber ?? '').toLowerCase();

/** Whether a restricted caller may read the item an index entry stands for. */
async function readable(caller: Caller, resolver: LineageResolver, entry: IndexEntry): Promise<boolean> {
  const type = entry.type;
  const item: StoredItem = {
    _id: entry.id,
    entityId: str(entry.doc.entityId),
    assetId: str(entry.doc.assetId),
  };
  return canAccessItem(caller, 'read', await resolver.complete(RESOURCE_OF[type], item));
}

/** One tier's matches, best first, until `limit` acceptable items are found or the tier runs out. */
async function collectTier(
  pk: string,
  q: string,
  tier: Tier,
  limit: number,
  accept: (e: IndexEntry) => Promise<boolean>,
): Promise<Candidate[]> {
  const found = new Map<string, Candidate>();
  let next: Record<string, unknown> | undefined;
  for (let page = 0; page < MAX_PAGES && found.size < limit; page++) {
    const out = await queryEntries(pk, `${tier}#${q}`, limit + 10, next);
    for (const entry of out.entries) {
      const key = `${entry.type}#${entry.id}`;
      if (found.has(key) || found.size >= limit || !(await accept(entry))) continue;
      found.set(key, { entry, tier, exact: entry.term === q });
    }
    next = out.next;
    if (!next) break;
  }
  return [...found.values()];
}

/**
 * The caller's best matches for a query, across the entities, assets and accounts they may read: exact
 * names, postcodes and meter point numbers first, then those that start with the query, then later words
 * of them, then other fields. Reads index entries only (one key lookup per tier), then the few items the
 * results name.
 */
export async function searchPortfolio(
  caller: Caller,
  input: { query: string; type?: SearchType; limit: number },
): Promise<SearchResult[]> {
  const q = compact(input.query);
  if (q.length < SEARCH_MIN_CHARS) {
    throw formError({ query: `Enter at least ${SEARCH_MIN_CHARS} letters or digits` });
  }
  await ensureSearchIndex(caller.companyId);
  const pk = searchKeys.entries(caller.companyId, q.slice(0, PREFIX_LENGTH));
  const resolver = isCompanyWide(caller) ? undefined : new LineageResolver(caller.companyId, caller);
  const accept = async (e: IndexEntry) =>
    (!input.type || e.type === input.type) && (!resolver || (await readable(caller, resolver, e)));
  const tiers = await Promise.all(TIERS.map((tier) => collectTier(pk, q, tier, input.limit, accept)));

  const best = new Map<string, Candidate>();
  for (const c of tiers.flat()) {
    const key = `${c.entry.type}#${c.entry.id}`;
    const known = best.get(key);
    if (!known || c.tier < known.tier || (c.tier === known.tier && c.exact && !known.exact)) best.set(key, c);
  }
  const ranked = [...best.values()]
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        Number(b.exact) - Number(a.exact) ||
        labelOf(a.entry).localeCompare(labelOf(b.entry), 'en-GB'),
    )
    .slice(0, input.limit)
    .map((c) => c.entry);
  return hydrate(caller.companyId, ranked);
}

/** Adds the names results show beside their own: parent entity, entity, asset and company. */
async function hydrate(companyId: string, entries: readonly IndexEntry[]): Promise<SearchResult[]> {
  const entityIds = entries.flatMap((e) => [str(e.doc.parentEntityId), str(e.doc.entityId)]);
  const assetIds = entries.filter((e) => e.type === 'account').map((e) => str(e.doc.assetId));
  const [entities, assets, company] = await Promise.all([
    getCollectionItems(
      { companyId },
      'entities',
      entityIds.filter((id): id is string => id !== undefined),
    ),
    getCollectionItems(
      { companyId },
      'assets',
      assetIds.filter((id): id is string => id !== undefined),
    ),
    getCollectionItem({}, 'companies', companyId),
  ]);
  const assetEntityIds = [...assets.values()].map((a) => str(a.entityId));
  const missing = assetEntityIds.filter((id): id is string => id !== undefined && !entities.has(id));
  if (missing.length > 0)
    for (const [id, e] of await getCollectionItems({ companyId }, 'entities', missing)) entities.set(id, e);

  const live = (item: StoredItem | undefined) => (item && item.deleted !== true ? item : undefined);
  const entityRef = (id: string | undefined) => {
    const e = live(id ? entities.get(id) : undefined);
    return e ? { _id: e._id, legalName: String(e.legalName) } : null;
  };
  const companyRef = { _id: companyId, name: String(company?.name ?? '') };

  return entries.map((e): SearchResult => {
    const d = e.doc;
    const base = { sourceId: e.id, company: companyRef };
    if (e.type === 'entity') {
      return {
        ...base,
        searchType: 'entity',
        legalName: String(d.legalName),
        parentEntity: entityRef(str(d.parentEntityId)),
      };
    }
    if (e.type === 'asset') {
      return {
        ...base,
        searchType: 'asset',
        siteName: String(d.siteName),
        addressString: String(d.addressString ?? ''),
        primaryImageUrl: str(d.primaryImageUrl) ?? null,
        entity: entityRef(str(d.entityId)),
      };
    }
    const assetId = str(d.assetId);
    const asset = live(assetId ? assets.get(assetId) : undefined);
    return {
      ...base,
      searchType: 'account',
      type: utilityTypeOf(d.type),
      name: str(d.name),
      meterPointNumber: str(d.meterPointNumber),
      status: str(d.status),
      assetId,
      parentAccountId: str(d.parentAccountId) ?? null,
      asset: asset ? { _id: asset._id, siteName: String(asset.siteName) } : null,
      entity: entityRef(str(d.entityId) ?? str(asset?.entityId)),
    };
  });
}
