/**
 * | pattern                                     | key condition                                                 | index |
 * | ------------------------------------------- | ------------------------------------------------------------- | ----- |
 * | one import batch by id                      | pk = C#{companyId}#import-batches, sk = batchId               | table |
 * | write / remove an import batch              | pk = C#{companyId}#import-batches, sk = batchId               | table |
 * | write an import's new items (batches of 25) | pk = {collection}, sk = id, with its index keys               | table |
 * | write search entries and manifests          | pk, sk as the search index builds them                        | table |
 * | remove what a failed import wrote           | pk, sk as written; their collections counted afresh           | table |
 * | the search manifests of imported items      | BatchGet pk = C#{companyId}#search-manifest, sk = {type}#{id} | table |
 */
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportModel } from '../../../shared/schemas/register-imports.ts';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { moveAccessStamp, watchedOf } from '../data/access-version.ts';
import { batchWrite, type WriteRequest } from '../data/batch-writes.ts';
import { sitesCompanyOf, writingSites } from '../data/change-marks.ts';
import { type CollectionRef, keyAttributes, type StoredItem } from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';
import { forgetCount, withChange } from '../data/list-summary.ts';
import { searchKeys } from '../search-index/search-index-repository.ts';

/**
 * What one import wrote, kept beside the company's items: the batch id, the model and the ids of the
 * items it created, so a rollback reads exactly those (a key lookup and a batch read, never a search).
 */
export interface ImportBatch {
  batchId: string;
  companyId: string;
  model: ImportModel;
  fileName?: string;
  /** The moment stamped as createdAt and updatedAt on every item of the batch. */
  importedAt: string;
  createdBy: string;
  itemIds: string[];
  /** Items kept outside the model's company collection (a meter's contracts), by id: their collection. */
  itemPks?: Record<string, string>;
  status: 'writing' | 'complete' | 'rolled-back';
  rolledBackAt?: string;
  rolledBackBy?: string;
}

const batchesPk = (companyId: string) => keys.collection({ companyId }, 'import-batches');

export async function putImportBatch(batch: ImportBatch): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { pk: batchesPk(batch.companyId), sk: batch.batchId, _id: batch.batchId, ...batch },
    }),
  );
}

export async function getImportBatch(companyId: string, batchId: string): Promise<ImportBatch | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: { pk: batchesPk(companyId), sk: batchId } }),
  );
  if (!out.Item) return undefined;
  const { pk: _pk, sk: _sk, _id: _i, ...batch } = out.Item;
  return batch as ImportBatch;
}

export async function deleteImportBatch(companyId: string, batchId: string): Promise<void> {
  await documentClient().send(
    new DeleteCommand({ TableName: config().tableName, Key: { pk: batchesPk(companyId), sk: batchId } }),
  );
}

const MAX_ATTEMPTS = 8;

/** An import's writes, a few batches at a time unless told. */
const writeBatches = (requests: readonly WriteRequest[], inFlight = 4) =>
  batchWrite(requests, { inFlight, what: 'import writes' });

export interface NewItem {
  ref: CollectionRef;
  item: StoredItem;
}

/**
 * Writes new items in batches of 25, a few batches at a time. BatchWrite cannot refuse an existing key,
 * so this is only for items whose ids were just made.
 */
export async function putNewItems(items: readonly NewItem[]): Promise<void> {
  const byCollection = new Map<string, NewItem[]>();
  for (const entry of items) {
    const group = byCollection.get(entry.ref.pk);
    if (group) group.push(entry);
    else byCollection.set(entry.ref.pk, [entry]);
  }
  // Each collection's counter hears of its new items around their writes, as single creates do.
  for (const [pk, group] of byCollection) {
    let written = 0;
    await underSitesMark(
      pk,
      group.map(({ item }) => item._id),
      () =>
        withChange(pk, async () => {
          await writeBatches(
            group.map(({ ref, item }) => ({
              PutRequest: { Item: { ...item, ...keyAttributes(ref, item) } },
            })),
          );
          written = group.filter(({ item }) => item.deleted !== true).length;
          return { result: undefined, liveDelta: written };
        }),
    );
    const watched = watchedOf(pk);
    if (watched && written > 0) {
      await moveAccessStamp(watched.companyId, { version: true, sites: !!sitesCompanyOf(pk) });
    }
  }
}

/**
 * Runs a write to a company's sites under its site marks, moved before and after it with the sites
 * named in their journals (change-marks.ts), as single site writes are.
 */
function underSitesMark<T>(pk: string, ids: readonly string[], write: () => Promise<T>): Promise<T> {
  const companyId = sitesCompanyOf(pk);
  return companyId && ids.length > 0 ? writingSites(companyId, ids, write) : write();
}

/** Items that carry their own keys (search index entries), many batches at a time. */
export async function putKeyedItems(items: readonly { pk: string; sk: string }[]): Promise<void> {
  await writeBatches(
    items.map((Item) => ({ PutRequest: { Item: { ...Item } } })),
    8,
  );
}

/**
 * Removes items outright (absent keys are no error): only to undo an import that failed half-way, never
 * to roll one back.
 */
export async function deleteKeys(keyList: readonly { pk: string; sk: string }[]): Promise<void> {
  const sites = new Map<string, string[]>();
  for (const { pk, sk } of keyList) {
    if (!sitesCompanyOf(pk)) continue;
    const ids = sites.get(pk);
    if (ids) ids.push(sk);
    else sites.set(pk, [sk]);
  }
  let deletes = () =>
    writeBatches(
      keyList.map((Key) => ({ DeleteRequest: { Key } })),
      8,
    );
  for (const [pk, ids] of sites) {
    const inner = deletes;
    deletes = () => underSitesMark(pk, ids, inner);
  }
  await deletes();
  // Which of the keys held live items is not known here, so their collections are counted afresh.
  const collections = new Set(keyList.map((k) => k.pk).filter((pk) => /^C#[^#]+#[a-z-]+$/.test(pk)));
  for (const pk of collections) {
    await forgetCount(pk);
    const watched = watchedOf(pk);
    if (watched) await moveAccessStamp(watched.companyId, { version: true, sites: !!sitesCompanyOf(pk) });
  }
}

const BATCH_GET_SIZE = 100;

/**
 * The search index entry keys written for items of one type, read in batches: what a rollback removes
 * from the index for the items it soft-deletes, without a read per item.
 */
export async function getSearchEntryKeys(
  companyId: string,
  type: string,
  ids: readonly string[],
): Promise<{ manifests: { pk: string; sk: string }[]; entries: { pk: string; sk: string }[] }> {
  const tableName = config().tableName;
  const pk = searchKeys.manifests(companyId);
  const manifests: { pk: string; sk: string }[] = [];
  const entries: { pk: string; sk: string }[] = [];
  for (let i = 0; i < ids.length; i += BATCH_GET_SIZE) {
    let wanted: Record<string, unknown>[] = ids
      .slice(i, i + BATCH_GET_SIZE)
      .map((id) => ({ pk, sk: `${type}#${id}` }));
    for (let attempt = 0; wanted.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Error('The table kept refusing a batch of reads');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: wanted } } }),
      );
      for (const raw of out.Responses?.[tableName] ?? []) {
        manifests.push({ pk: String(raw.pk), sk: String(raw.sk) });
        for (const k of (raw.keys as { pk: string; sk: string }[] | undefined) ?? [])
          entries.push({ pk: k.pk, sk: k.sk });
      }
      wanted = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return { manifests, entries };
}
