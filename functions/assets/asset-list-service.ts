import { isCompanyWide } from '../../shared/access/route-access.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { compareOrderKeys } from '../../shared/domain/order-key.ts';
import { assetListQuery, sitePageQuery } from '../../shared/schemas/asset-queries.ts';
import { UTILITY_TYPES } from '../../shared/schemas/mini-fields.ts';
import type { AssetAccountTypes } from '../../shared/schemas/responses/assets.ts';
import {
  LineageResolver,
  mayAccessItem,
  readableOf,
  type WorkedOutSites,
} from '../core/access/item-access-service.ts';
import { readAccessStamp } from '../core/data/access-version.ts';
import {
  getItem,
  listItems,
  orderedSortKey,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { badRequest, notFound } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { childRef, declaredResource, resourceRef } from '../core/resources/resource-refs.ts';
import { listQueryWithSchemas } from '../core/resources/resource-service.ts';
import { keepSiteTotal, keptSiteTotal, sitesInOrder } from './asset-list-cache.ts';
import { assetsRef, presentAsset } from './asset-records.ts';
import { companySitePage } from './company-site-pages.ts';

/** Filters that may name several values at once: `status=active,development`. */
const LIST_FILTERS = ['entityId', 'status', 'assetType'];

type Sorter = (a: StoredItem, b: StoredItem) => number;
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NEGATIVE_INFINITY);
/**
 * One collator for every comparison: `localeCompare` with options builds a new one per call. Made on the
 * first sort, not when the module loads: the first Intl object loads the ICU locale data (~10 ms), which
 * requests that sort nothing would otherwise pay in the function's cold start.
 */
let collator: Intl.Collator | undefined;
const byText =
  (field: string): Sorter =>
  (a, b) => {
    collator ??= new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });
    return collator.compare(text(a[field]), text(b[field]));
  };
const byNumber =
  (field: string): Sorter =>
  (a, b) =>
    num(a[field]) - num(b[field]);

/** Orders the list offers; `-` in front reverses one. Ids order by creation. */
const bySiteName: Sorter = (a, b) =>
  // As the ordered index keeps them, so a page read from it and a page sorted here agree.
  compareOrderKeys(orderedSortKey(a.siteName, a._id), orderedSortKey(b.siteName, b._id));
/** A map, not an object: a caller's `$sort=__proto__` must find nothing rather than what objects inherit. */
const SORTS: ReadonlyMap<string, Sorter> = new Map<string, Sorter>([
  ['siteName', bySiteName],
  ['assetType', byText('assetType')],
  ['status', byText('status')],
  ['epcRating', byText('epcRating')],
  ['floorArea', byNumber('floorArea')],
  ['createdAt', (a, b) => a._id.localeCompare(b._id)],
]);

export function sorterOf(param: string | undefined): Sorter {
  const raw = (param ?? 'siteName').trim() || 'siteName';
  const descending = raw.startsWith('-');
  const sorter = SORTS.get(descending ? raw.slice(1) : raw);
  if (!sorter) throw badRequest(`$sort must be one of ${[...SORTS.keys()].join(', ')}, optionally after -`);
  // Ties go by name, A to Z, in either direction.
  return (a, b) => (descending ? -1 : 1) * sorter(a, b) || bySiteName(a, b);
}

/** GET /assets: the sites the caller may see, filtered, searched, sorted and paged, with their pictures. */
const list = operation({ query: assetListQuery }, async (ctx): Promise<OpResult> => {
  const resource = declaredResource('assets');
  const { limit, skip, sort, search, fields } = ctx.query;
  const query = { ...fields };
  if (LIST_FILTERS.some((f) => query[f]?.includes(','))) query.$multi = 'true';
  const q = await listQueryWithSchemas(resource, query, { ownSort: true });
  if (sort === 'siteName' && !search && !q.includeDeleted && Object.keys(q.filters).length === 0) {
    // The default list: a page of the ordered index, or of the granted caller's readable sites.
    // A work-out of what the caller may read reads every site: the readable ones are kept for the pages.
    const worked: { sites?: WorkedOutSites } = {};
    const readable = await readableOf(ctx.caller, { sitesRead: (sites) => Object.assign(worked, { sites }) });
    const page = readable
      ? {
          data: await sitesInOrder(
            ctx.caller.companyId,
            ctx.caller.siteList ?? { mark: (await readAccessStamp(ctx.caller.companyId)).sites },
            readable.assetsInOrder.slice(skip, skip + limit),
            worked.sites,
          ),
          total: readable.assetsInOrder.length,
        }
      : await companySitePage(ctx.caller.companyId, ctx.caller.siteList?.mark, { limit, skip }, () =>
          listItems(assetsRef(ctx.caller.companyId), {
            filters: {},
            limit,
            skip,
            ordered: true,
            knownTotal: keptSiteTotal(ctx.caller.companyId, ctx.caller.siteList),
          }).then(
            (found) => {
              keepSiteTotal(ctx.caller.companyId, ctx.caller.siteList, found.total);
              return found;
            },
            (err: unknown) => {
              // A local table made before the ordered index existed has no such index: sort in memory there.
              if ((err as { name?: string }).name === 'ValidationException') return undefined;
              throw err;
            },
          ),
        );
    if (page) {
      const data = await Promise.all(page.data.map(presentAsset));
      return { body: { data, total: page.total, limit, skip } };
    }
  }
  const all = await listItems(assetsRef(ctx.caller.companyId), {
    ...q,
    skip: 0,
    limit: MAX_LIST_LIMIT,
    ...(search ? { text: search } : {}),
  });
  let readable = all.data;
  if (!isCompanyWide(ctx.caller)) {
    const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
    readable = [];
    for (const item of all.data)
      if (await mayAccessItem(resource, ctx.caller, item, 'read', resolver)) readable.push(item);
  }
  readable.sort(sorterOf(sort));
  const data = await Promise.all(readable.slice(skip, skip + limit).map(presentAsset));
  return { body: { data, total: readable.length, limit, skip } };
});

/** GET /assets/{id}: like the generic call (a deleted site is still shown, for restoring), pictures signed. */
const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const asset = await getItem(assetsRef(ctx.caller.companyId).pk, ctx.params.id);
  if (!asset) throw notFound();
  return { body: await presentAsset(asset) };
});

/** GET /assets/{id}/asset-groups: the portfolios this site is in that the caller may see. */
const assetGroups = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = declaredResource('asset-groups');
  const id = ctx.params.id;
  const groups = (await queryAll(resourceRef(ctx.caller.companyId, 'asset-groups').pk)).filter(
    (g) => g.deleted !== true && Array.isArray(g.assetIds) && g.assetIds.includes(id),
  );
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  const data: StoredItem[] = [];
  for (const g of groups) if (await mayAccessItem(resource, ctx.caller, g, 'read', resolver)) data.push(g);
  data.sort(byText('name'));
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

/** GET /assets/{id}/account-types: which utilities the site's meters measure, in the usual order. */
const accountTypes = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = declaredResource('accounts');
  const accounts = await listItems(resourceRef(ctx.caller.companyId, 'accounts'), {
    filters: { assetId: ctx.params.id },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  const counts: Record<string, number> = {};
  for (const account of accounts.data) {
    if (!(await mayAccessItem(resource, ctx.caller, account, 'read', resolver))) continue;
    const type = text(account.type);
    if (type) counts[type] = (counts[type] ?? 0) + 1;
  }
  const order = (t: string) => {
    const i = (UTILITY_TYPES as readonly string[]).indexOf(t);
    return i < 0 ? UTILITY_TYPES.length : i;
  };
  const data = Object.keys(counts).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return { body: { data, counts, total: data.length } satisfies AssetAccountTypes };
});

/** GET /assets/{id}/timeline-events: newest first by the event's date. */
const timeline = operation({ params: ['id'], query: sitePageQuery }, async (ctx): Promise<OpResult> => {
  const events = await listItems(childRef(ctx.caller.companyId, 'assets', ctx.params.id, 'timeline-events'), {
    filters: {},
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  const sorted = events.data.sort(
    (a, b) => text(b.date).localeCompare(text(a.date)) || b._id.localeCompare(a._id),
  );
  const { limit, skip } = ctx.query;
  return { body: { data: sorted.slice(skip, skip + limit), total: sorted.length, limit, skip } };
});

export const ASSET_LIST_OPERATIONS: Operations = {
  'assets.list': list,
  'assets.get': get,
  'assets.assetGroups': assetGroups,
  'assets.accountTypes': accountTypes,
  'assets.timeline.list': timeline,
};
