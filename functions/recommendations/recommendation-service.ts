import { recommendationSchema } from '../../shared/schemas/recommendation.ts';
import { loadAsset } from '../assets/index.ts';
import { mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, putItem, type StoredItem } from '../core/data/item-repository.ts';
import { forbidden, formError, notFound } from '../core/lib/errors.ts';
import { applyPatch } from '../core/lib/item-patch.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { declaredResource, resourceRef, stampNew } from '../core/resources/resource-refs.ts';

const ref = (companyId: string) => resourceRef(companyId, 'recommendations');
const COPIED = ['title', 'description', 'category', 'estimatedSaving', 'estimatedCost', 'priority'] as const;
const editable = recommendationSchema.omit({ assetId: true });

const isGlobal = (r: StoredItem) => typeof r.assetId !== 'string' || r.assetId === '';

async function loadGlobal(companyId: string, id: string): Promise<StoredItem | undefined> {
  const found = await getItem(ref(companyId).pk, id);
  return found && found.deleted !== true && isGlobal(found) ? found : undefined;
}

/**
 * POST /assets/{id}/recommendations: a recommendation for the site, written out or copied from a global
 * one (`globalRecommendationId`), whose fields the body may still override.
 */
const createForAsset = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const body = objectOf(ctx.body);
  let base: Record<string, unknown> = {};
  if (typeof body.globalRecommendationId === 'string' && body.globalRecommendationId !== '') {
    const global = await loadGlobal(ctx.caller.companyId, body.globalRecommendationId);
    if (!global) throw formError({ globalRecommendationId: 'No such global recommendation' });
    base = Object.fromEntries(COPIED.filter((k) => global[k] !== undefined).map((k) => [k, global[k]]));
  }
  const data = parseOrThrow(recommendationSchema, { ...base, ...body, assetId: asset._id });
  const item = stampNew(ctx.caller, data);
  await putItem(ref(ctx.caller.companyId), item, { mustNotExist: true });
  await writeActivity(ctx.caller, { type: 'create', model: 'recommendations', modelId: item._id });
  return { status: 201, body: item };
});

const softDelete = async (ctx: OpContext, item: StoredItem): Promise<OpResult> => {
  if (item.deleted === true) return { body: item };
  const changed = await changeItem(ref(ctx.caller.companyId), item._id, (current) =>
    current.deleted === true
      ? undefined
      : { ...current, deleted: true, deletedAt: new Date().toISOString(), deletedBy: ctx.caller.sub },
  );
  if (!changed) throw notFound();
  if (!changed.written) return { body: changed.after };
  const next = changed.after;
  await writeActivity(ctx.caller, { type: 'delete', model: 'recommendations', modelId: item._id });
  return { body: next };
};

/** DELETE /assets/{id}/recommendations/{recommendationId}: only a recommendation of that site. */
const deleteForAsset = operation({ params: ['recommendationId', 'id'] }, async (ctx): Promise<OpResult> => {
  const item = await getItem(ref(ctx.caller.companyId).pk, ctx.params.recommendationId);
  if (!item || item.assetId !== ctx.params.id) throw notFound();
  return softDelete(ctx, item);
});

/** A company-wide recommendation (no site); one of a site answers 404 here, as does another company's. */
async function globalForRoute(ctx: WithParams<'id'>, access: 'read' | 'write'): Promise<StoredItem> {
  const item = await loadGlobal(ctx.caller.companyId, ctx.params.id);
  const resource = declaredResource('recommendations');
  if (!item || !(await mayAccessItem(resource, ctx.caller, item, 'read'))) throw notFound();
  if (access === 'write' && !(await mayAccessItem(resource, ctx.caller, item, 'write'))) throw forbidden();
  return item;
}

const getGlobal = operation(
  { params: ['id'] },
  async (ctx): Promise<OpResult> => ({
    body: await globalForRoute(ctx, 'read'),
  }),
);

const updateGlobal = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const item = await globalForRoute(ctx, 'write');
  // Applied to the recommendation as stored when written, so a concurrent change of another field stays.
  const changed = await changeItem(ref(ctx.caller.companyId), item._id, (current) => {
    if (current.deleted === true) throw notFound();
    return { ...applyPatch(current, editable, ctx.body ?? {}), updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  return { body: changed.after };
});

const deleteGlobal = operation(
  { params: ['id'] },
  async (ctx): Promise<OpResult> => softDelete(ctx, await globalForRoute(ctx, 'write')),
);

export const RECOMMENDATION_OPERATIONS: Operations = {
  'recommendations.createForAsset': createForAsset,
  'recommendations.deleteForAsset': deleteForAsset,
  'recommendations.global.get': getGlobal,
  'recommendations.global.update': updateGlobal,
  'recommendations.global.delete': deleteGlobal,
};
