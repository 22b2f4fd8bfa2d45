import * as z from 'zod/mini';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { IMPERIAL_AREA_FACTOR, MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { ID_PATTERN, idField } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { assetGroupPageQuery, assetGroupSearchQuery } from '../../shared/schemas/queries.ts';
import type { FloorAreaTotal } from '../../shared/schemas/register.ts';
import { findResource, type ResourceDecl } from '../../shared/system/resources.ts';
import { moveSiteInPortfolio } from '../accounts/index.ts';
import { pageOfAssets } from '../assets/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { putItem, type StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { sentFields } from '../core/lib/item-patch.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { addressStringOf, primaryImageUrlOf } from '../core/search-index/search-terms.ts';
import { searchPortfolio } from '../search/index.ts';
import {
  assetIdsOf,
  floorAreaM2,
  groupsRef,
  loadGroup,
  readableAssets,
  requireAssets,
} from './asset-group-access.ts';

/** Most assets one call adds at once; larger changes go through an import. */
const MAX_BULK_ASSETS = 500;

/**
 * Brings the portfolio's roll-up in line with a change of its sites: each site that joined adds its
 * roll-ups, each that left takes them away, so the portfolio's figures are read from one partition.
 */
async function moveRollups(companyId: string, groupId: string, before: string[], after: string[]) {
  const joined = after.filter((id) => !before.includes(id));
  const left = before.filter((id) => !after.includes(id));
  await inPool(joined, 4, (id) => moveSiteInPortfolio(companyId, groupId, id, 1));
  await inPool(left, 4, (id) => moveSiteInPortfolio(companyId, groupId, id, -1));
}

/**
 * Changes a group as stored when written (retried if another write lands in between), so two people adding
 * assets or renaming at once both keep what they did. `change` answers undefined for nothing to change.
 */
async function save(
  ctx: OpContext,
  group: StoredItem,
  change: (current: StoredItem) => StoredItem | undefined,
  type: string,
  /** Worked out once the write is done, from what the change found. */
  message?: () => string,
): Promise<StoredItem> {
  const changed = await changeItem(groupsRef(ctx.caller.companyId), group._id, (current) => {
    if (current.deleted === true) throw notFound();
    const next = change(current);
    return next && { ...next, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  if (!changed.written) return changed.after;
  const next = changed.after;
  await moveRollups(ctx.caller.companyId, group._id, assetIdsOf(changed.before), assetIdsOf(next));
  await writeActivity(ctx.caller, {
    type,
    model: 'asset-groups',
    modelId: group._id,
    ...(message ? { message: message() } : {}),
  });
  return next;
}

/** The group's schema loads with the first write: the function's reads and cold start do without it. */
const groupSchemas = () => import('../../shared/schemas/asset-group.ts');

/** POST /asset-groups: every asset named must be a live asset of the company, or nothing is made. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const { assetGroupSchema } = await groupSchemas();
  const data = parseOrThrow(assetGroupSchema, ctx.body);
  const assetIds = [...new Set(data.assetIds)];
  await requireAssets(ctx.caller, assetIds);
  const now = new Date().toISOString();
  const item: StoredItem = {
    ...data,
    assetIds,
    _id: newId(),
    companyId: ctx.caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putItem(groupsRef(ctx.caller.companyId), item, { mustNotExist: true });
  await moveRollups(ctx.caller.companyId, item._id, [], assetIds);
  await writeActivity(ctx.caller, { type: 'create', model: 'asset-groups', modelId: item._id });
  return { status: 201, body: item };
});

/** PATCH /asset-groups/{id}: name, description and the asset list, checked as on create. */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const group = await loadGroup(ctx.caller, ctx.params.id, 'write');
  const { assetGroupSchema } = await groupSchemas();
  const patch = parseOrThrow(assetGroupSchema.partial(), ctx.body);
  const changes = sentFields(patch, ctx.body);
  if (Array.isArray(changes.assetIds)) {
    changes.assetIds = [...new Set(changes.assetIds)];
    await requireAssets(ctx.caller, changes.assetIds);
  }
  return { body: await save(ctx, group, (current) => ({ ...current, ...changes }), 'update') };
});

/** GET /asset-groups/{id}/assets: the group's assets, by site name, each with its floor area in m². */
const assets = operation({ params: ['id'], query: assetGroupPageQuery }, async (ctx): Promise<OpResult> => {
  const group = await loadGroup(ctx.caller, ctx.params.id, 'read');
  const { limit, skip } = ctx.query;
  const all = (await readableAssets(ctx.caller, assetIdsOf(group))).sort((a, b) =>
    String(a.siteName).localeCompare(String(b.siteName), 'en-GB'),
  );
  const data = all.slice(skip, skip + limit).map((a) => ({ ...a, floorAreaM2: floorAreaM2(a) }));
  return { body: { data, total: all.length, limit, skip } };
});

async function addAll(ctx: OpContext, group: StoredItem, ids: string[]): Promise<OpResult> {
  const wanted = [...new Set(ids)];
  let added = 0;
  const next = await save(
    ctx,
    group,
    (stored) => {
      const current = assetIdsOf(stored);
      const fresh = wanted.filter((id) => !current.includes(id));
      added = fresh.length;
      return fresh.length === 0 ? undefined : { ...stored, assetIds: [...current, ...fresh] };
    },
    'update',
    () => `${added} assets added`,
  );
  return { body: next };
}

/** PUT /asset-groups/{id}/asset/{assetId}: adds one asset (an unknown asset is 404). */
const addAsset = operation({ params: ['id', 'assetId'] }, async (ctx): Promise<OpResult> => {
  const group = await loadGroup(ctx.caller, ctx.params.id, 'write');
  const id = ctx.params.assetId;
  if (!ID_PATTERN.test(id) || (await readableAssets(ctx.caller, [id])).length === 0) throw notFound();
  return addAll(ctx, group, [id]);
});

const assetIdList = onFirstUse(() =>
  z.array(idField()).check(z.minLength(1, 'Name at least one asset'), z.maxLength(MAX_BULK_ASSETS)),
);

/** PUT /asset-groups/{id}/assets/{assetIds}: adds a comma-separated list; one bad id adds none. */
const addAssets = operation({ params: ['id', 'assetIds'] }, async (ctx): Promise<OpResult> => {
  const group = await loadGroup(ctx.caller, ctx.params.id, 'write');
  const ids = ctx.params.assetIds
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const parsed = assetIdList.safeParse(ids);
  if (!parsed.success) throw formError({ assetIds: parsed.error.issues[0]?.message ?? 'Invalid asset ids' });
  await requireAssets(ctx.caller, parsed.data);
  return addAll(ctx, group, parsed.data);
});

/** DELETE /asset-groups/{id}/asset/{assetId}: takes an asset out of the group (404 if it is not in it). */
const removeAsset = operation({ params: ['id', 'assetId'] }, async (ctx): Promise<OpResult> => {
  const group = await loadGroup(ctx.caller, ctx.params.id, 'write');
  const id = ctx.params.assetId;
  const next = await save(
    ctx,
    group,
    (stored) => {
      const current = assetIdsOf(stored);
      if (!current.includes(id)) throw notFound();
      return { ...stored, assetIds: current.filter((a) => a !== id) };
    },
    'update',
    () => 'Asset removed',
  );
  return { body: next };
});

/**
 * GET /asset-groups/{id}/search-assets?query=: assets of the company to pick from, each saying whether it
 * is in the group. With a query (3 characters or more) the search index answers; without one, a page of
 * all assets.
 */
const searchAssets = operation(
  { params: ['id'], query: assetGroupSearchQuery },
  async (ctx): Promise<OpResult> => {
    const group = await loadGroup(ctx.caller, ctx.params.id, 'read');
    const inGroup = new Set(assetIdsOf(group));
    const { limit, skip, query } = ctx.query;
    if (query) {
      const results = await searchPortfolio(ctx.caller, {
        query,
        type: 'asset',
        limit: Math.min(limit, 100),
      });
      const data = results.map((r) => ({
        _id: r.sourceId,
        siteName: r.siteName,
        addressString: r.addressString,
        primaryImageUrl: r.primaryImageUrl,
        entity: r.entity,
        inGroup: inGroup.has(r.sourceId),
      }));
      return { body: { data, total: data.length, limit, skip: 0 } };
    }
    const assetsDecl = findResource('assets') as ResourceDecl;
    let items: StoredItem[];
    let total: number;
    if (isCompanyWide(ctx.caller)) {
      ({ data: items, total } = await pageOfAssets(ctx.caller.companyId, { limit, skip }));
    } else {
      const all = await pageOfAssets(ctx.caller.companyId, { limit: MAX_LIST_LIMIT, skip: 0 });
      const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
      const readable: StoredItem[] = [];
      for (const a of all.data)
        if (await mayAccessItem(assetsDecl, ctx.caller, a, 'read', resolver)) readable.push(a);
      items = readable.slice(skip, skip + limit);
      total = readable.length;
    }
    const data = items.map((a) => ({
      _id: a._id,
      siteName: a.siteName,
      addressString: addressStringOf(a),
      primaryImageUrl: primaryImageUrlOf(a),
      inGroup: inGroup.has(a._id),
    }));
    return { body: { data, total, limit, skip } };
  },
);

/** GET /asset-groups/{id}/floor-area: the group's total floor area in m² and ft² (1 ft² = 0.092903 m²). */
const floorArea = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const group = await loadGroup(ctx.caller, ctx.params.id, 'read');
  const areas = (await readableAssets(ctx.caller, assetIdsOf(group))).map(floorAreaM2);
  const known = areas.filter((a): a is number => a !== null);
  const m2 = known.reduce((n, a) => n + a, 0);
  const body: FloorAreaTotal = {
    m2: Math.round(m2 * 100) / 100,
    ft2: Math.round((m2 / IMPERIAL_AREA_FACTOR) * 100) / 100,
    assetsCount: areas.length,
    assetsWithFloorArea: known.length,
  };
  return { body };
});

export const ASSET_GROUP_OPERATIONS: Operations = {
  'assetGroups.create': create,
  'assetGroups.update': update,
  'assetGroups.assets': assets,
  'assetGroups.addAsset': addAsset,
  'assetGroups.addAssets': addAssets,
  'assetGroups.removeAsset': removeAsset,
  'assetGroups.searchAssets': searchAssets,
  'assetGroups.floorArea': floorArea,
};
