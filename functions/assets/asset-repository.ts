/**
 * | pattern                                   | key condition                               | index |
 * | ----------------------------------------- | ------------------------------------------- | ----- |
 * | one site by id                            | pk = C#{companyId}#assets, sk = id          | table |
 * | every site of a company (some fields)     | pk = C#{companyId}#assets                   | table |
 * | every site's floor area and import batch  | pk = C#{companyId}#assets                   | table |
 * | live sites of one entity (count)          | gsi entityId = C#{companyId}#assets#entityId#{id} | gsi   |
 * | sites in use by meters or projects        | pk = C#{companyId}#accounts / #projects     | table |
 * | sites by ids                              | BatchGet pk = C#{companyId}#assets, sk = ids | table |
 * | sites by ids, as last written             | the same, ConsistentRead                    | table |
 * | a page of a company's sites (unfiltered)  | pk = C#{companyId}#assets                   | table |
 * | one picture upload ticket by image id     | pk = G#asset-image-uploads, sk = imageId    | table |
 *
 * The paged and filtered site lists go through the generic list of the declared assets resource.
 */
import type * as z from 'zod';
import type { assetSchema } from '../../shared/schemas/asset.ts';
import type { ImageContentType } from '../../shared/schemas/asset-documents.ts';
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  listItems,
  putItem,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { live, type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredAsset = Stored<z.input<typeof assetSchema>>;

const assetsPk = (companyId: string) => keys.collection({ companyId }, 'assets');

/** Types a site (a stored one, or one about to be written) after checking it has its name. */
export const toAsset = (item: StoredItem): StoredAsset =>
  storedRecord<StoredAsset>('site', item, ['siteName']);

/** A site as stored, deleted or not. */
export async function findStoredAsset(companyId: string, id: string): Promise<StoredAsset | undefined> {
  const item = await getItem(assetsPk(companyId), id);
  return item ? toAsset(item) : undefined;
}

/** A live site of the company, or undefined. */
export async function findAsset(companyId: string, id: string): Promise<StoredAsset | undefined> {
  return live(await findStoredAsset(companyId, id));
}

/** Every site of a company, deleted ones too, with only the fields asked for (and _id). */
export async function assetFieldsOf<F extends keyof StoredAsset & string>(
  companyId: string,
  fields: readonly F[],
): Promise<(Partial<Pick<StoredAsset, F>> & { _id: string })[]> {
  // A projection carries only the fields asked for, each of which may be absent: hence Partial, unchecked.
  return (await projectAll(assetsPk(companyId), fields)) as (Partial<Pick<StoredAsset, F>> & {
    _id: string;
  })[];
}

/** A site's floor area as stored, its units, and the import batch that made it, if one did. */
export interface SiteFloorArea {
  _id: string;
  floorArea?: unknown;
  floorAreaUnit?: unknown;
  floorAreaStoredAs?: unknown;
  batchId?: unknown;
}

/** Every live site's floor area fields, for the floor-area migration. */
export async function siteFloorAreasOf(companyId: string): Promise<SiteFloorArea[]> {
  return projectAll(assetsPk(companyId), ['floorArea', 'floorAreaUnit', 'floorAreaStoredAs', 'batchId']);
}

/** Live sites by id (missing and deleted ones left out), keyed by id. */
/** Sites by id as stored (deleted ones too), as the last write left them: for keeping in the process. */
export async function readSitesAsWritten(
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, StoredItem>> {
  return getItems(assetsPk(companyId), ids, { consistent: true });
}

export async function findAssets(
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, StoredAsset>> {
  const found = await getItems(assetsPk(companyId), ids);
  const out = new Map<string, StoredAsset>();
  for (const [id, item] of found) if (item.deleted !== true) out.set(id, toAsset(item));
  return out;
}

/** A page of a company's live sites in id order, with how many there are. */
export async function pageOfAssets(
  companyId: string,
  page: { limit: number; skip: number },
): Promise<{ data: StoredAsset[]; total: number }> {
  const { data, total } = await listItems(
    { pk: assetsPk(companyId), indexes: [], searchFields: [] },
    { filters: {}, ...page },
  );
  return { data: data.map(toAsset), total };
}

/** How many live sites an entity holds (a count query of the entityId index: no item bodies). */
export async function countAssetsOfEntity(companyId: string, entityId: string): Promise<number> {
  const page = await listItems(declaredRef('assets', { companyId }), {
    filters: { entityId },
    limit: 0,
    skip: 0,
  });
  return page.total;
}

/** Ids of the sites that meters or projects of the company name (deleted ones included). */
export async function assetIdsInUse(companyId: string): Promise<Set<string>> {
  const lists = await Promise.all(
    ['accounts', 'projects'].map((name) => projectAll(keys.collection({ companyId }, name), ['assetId'])),
  );
  return new Set(lists.flat().flatMap((x) => (typeof x.assetId === 'string' ? [x.assetId] : [])));
}

/**
 * An upload the API handed out. Object keys carry no company, so the worker learns from the ticket whose
 * site a picture is, and a picture nobody asked to upload is never attached to anything.
 */
export type ImageTicket = StoredItem & {
  companyId: string;
  assetId: string;
  key: string;
  contentType: ImageContentType;
  status: 'pending' | 'done' | 'rejected';
  reason?: string;
};

const TICKETS: CollectionRef = {
  pk: keys.collection({}, 'asset-image-uploads'),
  indexes: [],
  searchFields: [],
};

export async function saveTicket(ticket: ImageTicket): Promise<void> {
  await putItem(TICKETS, ticket);
}

export async function findTicket(imageId: string): Promise<ImageTicket | undefined> {
  const item = await getItem(TICKETS.pk, imageId);
  return item
    ? storedRecord<ImageTicket>('picture upload', item, [
        'companyId',
        'assetId',
        'key',
        'contentType',
        'status',
      ])
    : undefined;
}
