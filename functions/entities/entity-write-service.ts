import * as z from 'zod';
import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { addressSchema } from '../../shared/schemas/address.ts';
import { idSchema, nonEmpty } from '../../shared/schemas/common.ts';
import { entitySchema } from '../../shared/schemas/entity.ts';
import { countAssetsOfEntity } from '../assets/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { putItem, type StoredItem } from '../core/data/item-repository.ts';
import { ApiError, forbidden, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { applyPatch } from '../core/lib/item-patch.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { GENERIC_OPERATIONS } from '../core/resources/resource-service.ts';
import { indexForSearch } from '../core/search-index/search-index-service.ts';
import { entitiesRef, parentIdOf } from './entity-repository.ts';
import { type EntityHierarchy, loadHierarchy } from './entity-structure-service.ts';

export const ENTITY_MESSAGES = {
  cycle: 'An entity cannot be moved under itself or one of its own subsidiaries.',
  parentNotFound: 'Parent entity not found',
  duplicate: 'An entity with this legal name already exists here.',
  inUse: 'This entity still has subsidiaries or assets: move or delete them first.',
} as const;

/**
 * The parent an entity may be placed under: a live entity of the company the caller can see (else
 * "not found", never another company's), that they may write to. Only company users make top-level entities.
 */
function checkParent(h: EntityHierarchy, caller: Caller, parentId: string | null | undefined): void {
  if (!parentId) {
    if (!isCompanyWide(caller)) throw forbidden('Only company users can add a top-level entity');
    return;
  }
  if (!h.byId.has(parentId) || !h.allows(caller, 'read', parentId)) {
    throw formError({ parentEntityId: ENTITY_MESSAGES.parentNotFound });
  }
  if (!h.allows(caller, 'write', parentId)) throw forbidden();
}

async function save(ctx: AnyOpContext, item: StoredItem, mode: 'create' | 'update'): Promise<void> {
  await putItem(
    entitiesRef(ctx.caller.companyId),
    item,
    mode === 'create' ? { mustNotExist: true } : { mustExist: true },
  );
  await indexForSearch(ctx.caller.companyId, 'entities', item);
}

function stamp(caller: Caller, data: Record<string, unknown>): StoredItem {
  const now = new Date().toISOString();
  return {
    ...data,
    parentEntityId: data.parentEntityId ?? null,
    _id: newId(),
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
}

/** POST /entities: the generic create, with a parent that must exist in the caller's reach. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const data = parseOrThrow(entitySchema, ctx.body);
  const h = await loadHierarchy(ctx.caller.companyId);
  checkParent(h, ctx.caller, data.parentEntityId);
  const item = stamp(ctx.caller, data);
  await save(ctx, item, 'create');
  await writeActivity(ctx.caller, { type: 'create', model: 'entities', modelId: item._id });
  return { status: 201, body: item };
});

/** What the new-entity wizard sends: the entity, its registered address and where it sits in the group. */
export const entityWizardSchema = z.object({
  legalName: nonEmpty.max(200),
  companyNumber: z.string().trim().max(20).optional(),
  parentEntityId: idSchema.nullable().optional(),
  address: addressSchema.optional(),
});

/** POST /entities/from-wizard: as create, and a second entity of the same name under one parent is refused. */
const fromWizard = operation({}, async (ctx): Promise<OpResult> => {
  const data = parseOrThrow(entityWizardSchema, ctx.body);
  const h = await loadHierarchy(ctx.caller.companyId);
  checkParent(h, ctx.caller, data.parentEntityId);
  const parent = data.parentEntityId ?? undefined;
  const name = data.legalName.toLowerCase();
  const siblings = parent ? h.children(parent) : h.roots();
  if (siblings.some((s) => String(s.legalName).toLowerCase() === name)) {
    throw formError({ legalName: ENTITY_MESSAGES.duplicate });
  }
  const item = stamp(ctx.caller, data);
  await save(ctx, item, 'create');
  await writeActivity(ctx.caller, {
    type: 'create',
    model: 'entities',
    modelId: item._id,
    message: 'Wizard',
  });
  return { status: 201, body: item };
});

/** Loads an entity the caller may change: unreadable is 404, read-only is 403. */
function writable(h: EntityHierarchy, caller: Caller, id: string): StoredItem {
  const entity = h.byId.get(id);
  if (!entity || !h.allows(caller, 'read', id)) throw notFound();
  if (!h.allows(caller, 'write', id)) throw forbidden();
  return entity;
}

/** Refuses a new parent that is the entity itself or below it: the tree must stay a tree. */
function checkMove(h: EntityHierarchy, caller: Caller, id: string, parentId: string | null): void {
  if (parentId && (parentId === id || h.descendantsOf(id).has(parentId))) {
    throw formError({ parentEntityId: ENTITY_MESSAGES.cycle });
  }
  checkParent(h, caller, parentId);
}

/** Saves `existing` as `apply` changes it; a different parentEntityId moves it, checked as a move. */
async function change(ctx: WithParams<'id'>, apply: (existing: StoredItem) => StoredItem) {
  const h = await loadHierarchy(ctx.caller.companyId);
  const existing = writable(h, ctx.caller, ctx.params.id);
  let moving = false;
  // Applied to the entity as stored when written, so a concurrent change of another field is kept.
  const changed = await changeItem(entitiesRef(ctx.caller.companyId), existing._id, (current) => {
    if (current.deleted === true) throw notFound();
    const next: StoredItem = { ...apply(current), updatedAt: new Date().toISOString() };
    next.parentEntityId = next.parentEntityId ?? null;
    moving = next.parentEntityId !== (current.parentEntityId ?? null);
    if (moving) checkMove(h, ctx.caller, existing._id, parentIdOf(next));
    return next;
  });
  if (!changed) throw notFound();
  const next = changed.after;
  await indexForSearch(ctx.caller.companyId, 'entities', next);
  await writeActivity(ctx.caller, {
    type: moving ? 'move' : 'update',
    model: 'entities',
    modelId: existing._id,
    ...(moving ? { message: `Moved under ${next.parentEntityId ?? 'the top level'}` } : {}),
  });
  return { body: next };
}

/**
 * PATCH /entities/{id}: the generic update; a new parentEntityId moves the entity, cycles refused. An
 * optional field sent as null (companyNumber, address) is removed; the address is replaced as a whole.
 */
const update = operation(
  { params: ['id'] },
  async (ctx): Promise<OpResult> =>
    change(ctx, (existing) => applyPatch(existing, entitySchema, ctx.body ?? {})),
);

/** POST /entities/{id}/move { parentEntityId }: places the entity under another one, or at the top. */
const move = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(z.object({ parentEntityId: idSchema.nullable() }), ctx.body);
  return change(ctx, (existing) => ({ ...existing, parentEntityId: body.parentEntityId }));
});

/** DELETE /entities/{id}: refused while subsidiaries or assets would be left without their entity. */
const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const h = await loadHierarchy(ctx.caller.companyId);
  const entity = writable(h, ctx.caller, ctx.params.id);
  const assets = await countAssetsOfEntity(ctx.caller.companyId, entity._id);
  if (h.children(entity._id).length > 0 || assets > 0) {
    throw new ApiError(400, 'ENTITY_IN_USE', ENTITY_MESSAGES.inUse);
  }
  const remover = GENERIC_OPERATIONS['generic.delete'];
  if (!remover) throw new Error('The generic delete is missing');
  return remover(ctx);
});

export const ENTITY_WRITE_OPERATIONS: Operations = {
  'entities.create': create,
  'entities.fromWizard': fromWizard,
  'entities.update': update,
  'entities.move': move,
  'entities.delete': remove,
};
