import type { SearchType } from '../../../shared/schemas/register.ts';
import { allCollectionItems, type StoredItem } from '../data/item-repository.ts';
import { createLogger } from '../lib/logger.ts';
import {
  clearIndexVersion,
  deleteEntries,
  deleteManifest,
  type EntryKey,
  getIndexVersion,
  getManifest,
  type IndexEntry,
  listManifests,
  type Manifest,
  putEntries,
  putIndexVersion,
  putManifests,
  searchKeys,
} from './search-index-repository.ts';
import {
  indexTermsOf,
  PREFIX_LENGTH,
  RESOURCE_OF,
  SEARCH_INDEX_VERSION,
  searchDocOf,
  searchTypeOf,
} from './search-terms.ts';

const log = createLogger({ component: 'search-index' });

/** Companies whose index this process has seen current, until when (ms). */
const built = new Map<string, number>();
const rebuilding = new Map<string, Promise<unknown>>();
const BUILT_CACHE_MS = 60_000;

/** The index entries of one live item. */
export function entriesOf(companyId: string, type: SearchType, item: StoredItem): IndexEntry[] {
  if (item.deleted === true) return [];
  const doc = searchDocOf(type, item);
  return indexTermsOf(type, item).map(({ term, tier }) => ({
    pk: searchKeys.entries(companyId, term.slice(0, PREFIX_LENGTH)),
    sk: `${tier}#${term}#${type}#${item._id}`,
    type,
    id: item._id,
    tier,
    term,
    doc,
  }));
}

const keyOf = (k: EntryKey) => `${k.pk}\u0000${k.sk}`;
const keysOf = (entries: readonly IndexEntry[]): EntryKey[] => entries.map((e) => ({ pk: e.pk, sk: e.sk }));

async function syncItem(companyId: string, type: SearchType, item: StoredItem): Promise<void> {
  const entries = entriesOf(companyId, type, item);
  const fresh = new Set(entries.map(keyOf));
  const old = await getManifest(companyId, type, item._id);
  await deleteEntries((old?.keys ?? []).filter((k) => !fresh.has(keyOf(k))));
  await putEntries(entries);
  if (entries.length > 0) await putManifests(companyId, [{ type, id: item._id, keys: keysOf(entries) }]);
  else if (old) await deleteManifest(companyId, type, item._id);
}

/**
 * Keeps the search index in step with an entity, asset or account that was just written (created,
 * changed, deleted or restored); other resources are ignored. Anything that writes those items outside
 * the generic resource calls must call this too. A failure does not fail the write: the company's index
 * is marked stale instead, and the next search rebuilds it.
 */
export async function indexForSearch(companyId: string, resource: string, item: StoredItem): Promise<void> {
  const type = searchTypeOf(resource);
  if (!type) return;
  try {
    await syncItem(companyId, type, item);
  } catch (error) {
    log.warn('Search index update failed; the index will be rebuilt', {
      companyId,
      type,
      id: item._id,
      error: error instanceof Error ? error.message : String(error),
    });
    built.delete(companyId);
    await clearIndexVersion(companyId).catch(() => undefined);
  }
}

/** Builds a company's whole index from its entities, assets and accounts (Queries of their partitions). */
export async function rebuildSearchIndex(companyId: string): Promise<{ items: number; entries: number }> {
  const old = await listManifests(companyId);
  await deleteEntries(old.flatMap((m) => m.keys));
  await deleteEntries(old.map((m) => ({ pk: searchKeys.manifests(companyId), sk: `${m.type}#${m.id}` })));
  const entries: IndexEntry[] = [];
  const manifests: Manifest[] = [];
  for (const type of Object.keys(RESOURCE_OF) as SearchType[]) {
    const items = await allCollectionItems({ companyId }, RESOURCE_OF[type]);
    for (const item of items) {
      const mine = entriesOf(companyId, type, item);
      if (mine.length === 0) continue;
      entries.push(...mine);
      manifests.push({ type, id: item._id, keys: keysOf(mine) });
    }
  }
  await putEntries(entries);
  await putManifests(companyId, manifests);
  await putIndexVersion(companyId, SEARCH_INDEX_VERSION);
  return { items: manifests.length, entries: entries.length };
}

/**
 * A company that has just been created has nothing to index, so its (empty) index is complete: marked
 * current, its items are indexed as they are written rather than all again at its first search.
 */
export async function startSearchIndex(companyId: string): Promise<void> {
  await putIndexVersion(companyId, SEARCH_INDEX_VERSION);
}

/**
 * Makes sure a company's index exists in the current version before it is searched: data written before
 * the index existed (seeded, or by an older version) is indexed once, on first use.
 */
export async function ensureSearchIndex(companyId: string): Promise<void> {
  if ((built.get(companyId) ?? 0) > Date.now()) return;
  if ((await getIndexVersion(companyId)) !== SEARCH_INDEX_VERSION) {
    let pending = rebuilding.get(companyId);
    if (!pending) {
      pending = rebuildSearchIndex(companyId).finally(() => rebuilding.delete(companyId));
      rebuilding.set(companyId, pending);
    }
    await pending;
  }
  built.set(companyId, Date.now() + BUILT_CACHE_MS);
}
