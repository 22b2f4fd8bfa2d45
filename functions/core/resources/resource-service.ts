import * as z from 'zod/mini';
import type { Caller } from '../../../shared/access/caller.ts';
import { isCompanyWide } from '../../../shared/access/route-access.ts';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, MAX_PAGE_LIMIT } from '../../../shared/constants.ts';
import {
  genericListQuery,
  genericSearchQuery,
  genericSubListQuery,
} from '../../../shared/schemas/generic-queries.ts';
import {
  loadResourceSchemas,
  resourceSchema,
  subResourceSchema,
} from '../../../shared/system/resource-schemas.ts';
import { findResource, type ResourceDecl } from '../../../shared/system/resources.ts';
import type { HttpRoute } from '../../../shared/system/routes.ts';
import { LineageResolver, mayAccessItem, readableOf } from '../access/item-access-service.ts';
import { writeActivity } from '../activity/activity-service.ts';
import { getItems } from '../data/batch-reads.ts';
import { changeItem } from '../data/conditional-writes.ts';
import {
  type CollectionRef,
  collectionRef,
  getItem,
  type ListQuery,
  listItems,
  putItem,
  type StoredItem,
  subCollectionRef,
} from '../data/item-repository.ts';
import { badRequest, conflict, forbidden, formError, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { applyPatch } from '../lib/item-patch.ts';
import { parseOrThrow, throwIfOversized } from '../lib/validation.ts';
import type { AnyOpContext, Operation, Operations, OpResult } from '../middleware/api-context.ts';
import { operation } from '../middleware/operation.ts';
import { indexForSearch } from '../search-index/search-index-service.ts';
import { refuseUnknownRefs } from './resource-refs.ts';
import { viewOf, viewsOf } from './resource-views.ts';

/** Keeps what is derived from a company item (the global search index) in step with it after a write. */
const afterWrite = (resource: ResourceDecl, caller: Caller, item: StoredItem): Promise<void> =>
  resource.scope === 'company' ? indexForSearch(caller.companyId, resource.name, item) : Promise.resolve();

/** Query parameters that steer a list rather than filter it. */
const CONTROL_PARAMS = new Set([
  'limit',
  'skip',
  '$limit',
  '$skip',
  '$multi',
  '$deleted',
  '$sort',
  'query',
  '$select',
]);
const MAX_BULK = 100;

export function resourceOf(route: HttpRoute): ResourceDecl {
  const resource = route.resource ? findResource(route.resource) : undefined;
  if (!resource) throw new Error(`Route ${route.method} ${route.path} names no declared resource`);
  return resource;
}

function scopeOf(resource: ResourceDecl, caller: Caller) {
  return resource.scope === 'company' ? { companyId: caller.companyId } : {};
}

export function collectionOf(resource: ResourceDecl, caller: Caller): CollectionRef {
  return collectionRef(scopeOf(resource, caller), resource);
}

function subCollectionOf(
  resource: ResourceDecl,
  caller: Caller,
  parentId: string,
  sub: string,
): CollectionRef {
  return subCollectionRef(scopeOf(resource, caller), resource.name, parentId, sub);
}

function intParam(value: string | undefined, fallback: number, name: string, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`${name} must be a whole number of 0 or more`);
  return Math.min(n, max);
}

function coerce(value: string): string | number | boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/** Numbers arrive as text in a query string; the resource's schema says which fields are numbers. */
function coerceForField(resource: ResourceDecl, field: string, value: string): string | number | boolean {
  const shape = resourceSchema(resource.name).shape;
  const fieldSchema = Object.hasOwn(shape, field) ? shape[field] : undefined;
  if (fieldSchema && /^-?\d+(\.\d+)?$/.test(value) && fieldSchema.safeParse(Number(value)).success) {
    if (!fieldSchema.safeParse(value).success) return Number(value);
  }
  return coerce(value);
}

/**
 * `listQueryOf` for a function whose resource schemas may be registered for later: filters are typed by
 * the schema, so it is loaded first when the query names any.
 */
export async function listQueryWithSchemas(
  resource: ResourceDecl,
  query: Record<string, string>,
  opts: { ownSort?: boolean } = {},
): Promise<ListQuery> {
  if (Object.entries(query).some(([key, raw]) => !CONTROL_PARAMS.has(key) && raw !== ''))
    await loadResourceSchemas();
  return listQueryOf(resource, query, opts);
}

/** The orders a generic list offers: by creation (ids sort by creation time), either way. */
const GENERIC_SORTS = new Set(['createdAt', '-createdAt', '_id', '-_id']);

/**
 * The list query a route's query string asks for. `ownSort`: the operation orders the list itself and
 * checks `$sort` against the orders it offers.
 */
export function listQueryOf(
  resource: ResourceDecl,
  query: Record<string, string>,
  opts: { ownSort?: boolean } = {},
): ListQuery {
  const sort = query.$sort ?? '';
  if (!opts.ownSort && sort !== '' && !GENERIC_SORTS.has(sort))
    throw badRequest('$sort must be createdAt (oldest first) or -createdAt (newest first)');
  const multi = query.$multi === 'true';
  const filters: ListQuery['filters'] = {};
  for (const [key, raw] of Object.entries(query)) {
    if (CONTROL_PARAMS.has(key) || raw === '') continue;
    // A name every object inherits (constructor, __proto__) is the name of no field.
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) || key.split('.').some((part) => part in Object.prototype))
      throw badRequest(`Unknown filter ${key}`);
    const values = (multi || key === '_id') && raw.includes(',') ? raw.split(',').filter(Boolean) : [raw];
    const typed = values.map((v) => coerceForField(resource, key, v));
    filters[key] = typed.length === 1 ? (typed[0] as string | number | boolean) : typed;
  }
  return {
    filters,
    limit: intParam(query.limit ?? query.$limit, DEFAULT_LIST_LIMIT, 'limit', MAX_PAGE_LIMIT),
    skip: intParam(query.skip ?? query.$skip, 0, 'skip', Number.MAX_SAFE_INTEGER),
    includeDeleted: query.$deleted === 'true',
    descending: sort === '-createdAt' || sort === '-_id',
  };
}

/** Whether the caller may see this item of the resource under the per-item rules. */
function mayAccess(
  resource: ResourceDecl,
  caller: Caller,
  item: StoredItem,
  access: 'read' | 'write',
  resolver?: LineageResolver,
): Promise<boolean> {
  return mayAccessItem(resource, caller, item, access, resolver);
}

/** Loads an item for a route: absent, another company's and unreadable items are all the same 404. */
export async function loadForRoute(
  ctx: AnyOpContext,
  resource: ResourceDecl,
  id: string,
  access: 'read' | 'write',
) {
  const item = await getItem(collectionOf(resource, ctx.caller).pk, id);
  if (!item) throw notFound();
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  if (!(await mayAccess(resource, ctx.caller, item, 'read', resolver))) throw notFound();
  if (access === 'write' && !(await mayAccess(resource, ctx.caller, item, 'write', resolver)))
    throw forbidden();
  return item;
}

/**
 * Brings back a soft-deleted item of a company resource the caller may write (the undo of a deletion in
 * the log); an item that is not deleted is a conflict, one the caller cannot see is not found.
 */
export async function restoreDeleted(ctx: AnyOpContext, resource: ResourceDecl, id: string) {
  const existing = await loadForRoute(ctx, resource, id, 'write');
  if (existing.deleted !== true) throw conflict('This item is not deleted: there is nothing to bring back');
  const changed = await changeItem(collectionOf(resource, ctx.caller), existing._id, (current) => {
    if (current.deleted !== true) return undefined;
    const { deleted: _d, deletedAt: _a, deletedBy: _b, ...rest } = current;
    return { ...rest, updatedAt: new Date().toISOString() };
  });
  if (!changed?.written) throw conflict('This item is not deleted: there is nothing to bring back');
  await afterWrite(resource, ctx.caller, changed.after);
  await writeActivity(ctx.caller, { type: 'restore', model: resource.name, modelId: existing._id });
  return changed.after;
}

/** The items of a collection by id, in the order of `ids`. */
export async function itemsInOrder(pk: string, ids: readonly string[]): Promise<StoredItem[]> {
  const found = await getItems(pk, ids);
  return ids.map((id) => found.get(id)).filter((i): i is StoredItem => i !== undefined && i.deleted !== true);
}

/**
 * A list of what the caller may read, paged after the per-item filter so totals stay true. A granted
 * caller's plain list of entities, sites or meters is the page of their readable ids (kept per access
 * version), read by key; a filtered one reads what matches and keeps what those ids allow.
 */
export async function listReadable(resource: ResourceDecl, caller: Caller, given: ListQuery) {
  let q = given;
  if (resource.owner) {
    // Asking for another member's items finds none; asking for nobody's finds the caller's own.
    const asked = given.filters[resource.owner];
    if (asked !== undefined && !(Array.isArray(asked) ? asked : [asked]).includes(caller.sub))
      return { data: [], total: 0 };
    q = { ...given, filters: { ...given.filters, [resource.owner]: caller.sub } };
  }
  const ref = collectionOf(resource, caller);
  if ((!resource.itemType && !resource.parent) || isCompanyWide(caller)) return listItems(ref, q);
  const type = resource.itemType;
  const readable = type && !q.includeDeleted ? await readableOf(caller) : undefined;
  if (type && readable) {
    if (Object.keys(q.filters).length === 0 && !q.text) {
      const ids = q.descending ? [...readable[type]].reverse() : readable[type];
      return { data: await itemsInOrder(ref.pk, ids.slice(q.skip, q.skip + q.limit)), total: ids.length };
    }
    const all = await listItems(ref, { ...q, skip: 0, limit: MAX_LIST_LIMIT });
    const data = all.data.filter((item) => readable.sets[type].has(item._id));
    return { data: data.slice(q.skip, q.skip + q.limit), total: data.length };
  }
  const all = await listItems(ref, { ...q, skip: 0, limit: MAX_LIST_LIMIT });
  const resolver = new LineageResolver(caller.companyId, caller);
  const data: StoredItem[] = [];
  for (const item of all.data) if (await mayAccess(resource, caller, item, 'read', resolver)) data.push(item);
  return { data: data.slice(q.skip, q.skip + q.limit), total: data.length };
}

/** The resource's whole-item checks (ResourceDecl.refine), as a form error. */
function refineOrThrow(resource: ResourceDecl, item: Record<string, unknown>, prefix = ''): void {
  const errors = resource.refine?.(item);
  if (errors && Object.keys(errors).length > 0) {
    throw formError(Object.fromEntries(Object.entries(errors).map(([k, v]) => [`${prefix}${k}`, v])));
  }
}

function stamp(caller: Caller, data: Record<string, unknown>, resource: ResourceDecl): StoredItem {
  const now = new Date().toISOString();
  return {
    ...data,
    _id: newId(),
    ...(resource.scope === 'company' ? { companyId: caller.companyId } : {}),
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
}

const list = operation({ query: genericListQuery }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const q = listQueryOf(resource, ctx.query.text);
  const { data, total } = await listReadable(resource, ctx.caller, q);
  return { body: { data: await viewsOf(resource.name, data), total, limit: q.limit, skip: q.skip } };
});

const search = operation({ query: genericSearchQuery }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const text = ctx.query.query;
  if (text.length === 0) throw badRequest('query is required');
  const q = { ...listQueryOf(resource, ctx.query.text), text };
  const { data, total } = await listReadable(resource, ctx.caller, q);
  return { body: { data: await viewsOf(resource.name, data), total, limit: q.limit, skip: q.skip } };
});

const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  return { body: await viewOf(resource.name, await loadForRoute(ctx, resource, ctx.params.id, 'read')) };
});

const create = operation({}, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const data = parseOrThrow(resourceSchema(resource.name), ctx.body);
  refineOrThrow(resource, data);
  const item = stamp(ctx.caller, data, resource);
  if (resource.scope === 'company')
    await refuseUnknownRefs(ctx.caller.companyId, item, undefined, '', ctx.caller.sub);
  if (!(await mayAccess(resource, ctx.caller, item, 'write'))) throw forbidden();
  throwIfOversized(item);
  await putItem(collectionOf(resource, ctx.caller), item, { mustNotExist: true });
  await afterWrite(resource, ctx.caller, item);
  await writeActivity(ctx.caller, { type: 'create', model: resource.name, modelId: item._id });
  return { status: 201, body: item };
});

const bulk = operation({}, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const body = parseOrThrow(z.array(z.unknown()).check(z.minLength(1), z.maxLength(MAX_BULK)), ctx.body);
  const itemSchema = resourceSchema(resource.name);
  // All items are checked before any is written, so a bad item leaves nothing half-written.
  const parsed = body.map((entry, i) => {
    const result = itemSchema.safeParse(entry);
    if (!result.success) {
      const first = result.error.issues[0];
      const field = [i, ...(first?.path ?? [])].map(String).join('.');
      throw formError({ [field]: first?.message ?? 'Invalid' });
    }
    refineOrThrow(resource, result.data, `${i}.`);
    const item = stamp(ctx.caller, result.data, resource);
    throwIfOversized(item, `${i}.`);
    return item;
  });
  if (resource.scope === 'company') {
    for (const [i, item] of parsed.entries())
      await refuseUnknownRefs(ctx.caller.companyId, item, undefined, `${i}.`, ctx.caller.sub);
  }
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  for (const item of parsed) {
    if (!(await mayAccess(resource, ctx.caller, item, 'write', resolver))) throw forbidden();
  }
  const ref = collectionOf(resource, ctx.caller);
  for (const item of parsed) await putItem(ref, item, { mustNotExist: true });
  for (const item of parsed) await afterWrite(resource, ctx.caller, item);
  await writeActivity(ctx.caller, {
    type: 'bulk-create',
    model: resource.name,
    message: `${parsed.length} created`,
  });
  return { status: 201, body: { data: parsed, total: parsed.length } };
});

const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const existing = await loadForRoute(ctx, resource, ctx.params.id, 'write');
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  // Applied to the item as stored at each attempt, so a concurrent change of another field is kept.
  const changed = await changeItem(collectionOf(resource, ctx.caller), existing._id, async (current) => {
    if (!(await mayAccess(resource, ctx.caller, current, 'write', resolver))) throw forbidden();
    const next: StoredItem = {
      ...applyPatch(current, resourceSchema(resource.name), ctx.body),
      updatedAt: new Date().toISOString(),
    };
    refineOrThrow(resource, next);
    throwIfOversized(next);
    if (resource.scope === 'company')
      await refuseUnknownRefs(ctx.caller.companyId, next, current, '', ctx.caller.sub);
    // Moving an item must not move it out of the caller's reach.
    if (!(await mayAccess(resource, ctx.caller, next, 'write'))) throw forbidden();
    return next;
  });
  if (!changed) throw notFound();
  await afterWrite(resource, ctx.caller, changed.after);
  await writeActivity(ctx.caller, { type: 'update', model: resource.name, modelId: existing._id });
  return { body: changed.after };
});

const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const existing = await loadForRoute(ctx, resource, ctx.params.id, 'write');
  const changed = await changeItem(collectionOf(resource, ctx.caller), existing._id, (current) =>
    current.deleted === true
      ? undefined
      : { ...current, deleted: true, deletedAt: new Date().toISOString(), deletedBy: ctx.caller.sub },
  );
  if (!changed) throw notFound();
  if (!changed.written) return { body: changed.after };
  await afterWrite(resource, ctx.caller, changed.after);
  await writeActivity(ctx.caller, { type: 'delete', model: resource.name, modelId: existing._id });
  return { body: changed.after };
});

const restore = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const existing = await loadForRoute(ctx, resource, ctx.params.id, 'write');
  const changed = await changeItem(collectionOf(resource, ctx.caller), existing._id, (current) => {
    const { deleted: _d, deletedAt: _a, deletedBy: _b, ...rest } = current;
    return { ...rest, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  await afterWrite(resource, ctx.caller, changed.after);
  if (changed.before.deleted === true) {
    await writeActivity(ctx.caller, { type: 'restore', model: resource.name, modelId: existing._id });
  }
  return { body: changed.after };
});

const schema = operation({}, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const { inputJsonSchema } = await import('./resource-json-schema.ts');
  return { body: inputJsonSchema(resourceSchema(resource.name)) };
});

function subSchemaOf(resource: ResourceDecl, sub: string | undefined) {
  if (!sub || !resource.subResources?.includes(sub)) {
    throw new Error(`Resource ${resource.name} has no sub-resource ${sub}`);
  }
  return { sub, schema: subResourceSchema(resource.name, sub) };
}

const subList = operation({ params: ['id'], query: genericSubListQuery }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const parent = await loadForRoute(ctx, resource, ctx.params.id, 'read');
  const { sub } = subSchemaOf(resource, ctx.route.subResource);
  const q = listQueryOf(resource, {});
  const { limit, skip } = ctx.query;
  const result = await listItems(subCollectionOf(resource, ctx.caller, parent._id, sub), {
    ...q,
    limit,
    skip,
  });
  return { body: { ...result, limit, skip } };
});

const subGet = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const parent = await loadForRoute(ctx, resource, ctx.params.id, 'read');
  const { sub } = subSchemaOf(resource, ctx.route.subResource);
  const item = await getItem(subCollectionOf(resource, ctx.caller, parent._id, sub).pk, ctx.params.subId);
  if (!item || item.deleted === true) throw notFound();
  return { body: item };
});

const subCreate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const parent = await loadForRoute(ctx, resource, ctx.params.id, 'write');
  const { sub, schema: subSchema } = subSchemaOf(resource, ctx.route.subResource);
  const data = parseOrThrow(subSchema, ctx.body);
  const item = { ...stamp(ctx.caller, data, resource), parentId: parent._id };
  throwIfOversized(item);
  if (resource.scope === 'company') await refuseUnknownRefs(ctx.caller.companyId, data);
  await putItem(subCollectionOf(resource, ctx.caller, parent._id, sub), item, { mustNotExist: true });
  return { status: 201, body: item };
});

const subUpdate = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const parent = await loadForRoute(ctx, resource, ctx.params.id, 'write');
  const { sub, schema: subSchema } = subSchemaOf(resource, ctx.route.subResource);
  const ref = subCollectionOf(resource, ctx.caller, parent._id, sub);
  const changed = await changeItem(ref, ctx.params.subId, async (current) => {
    if (current.deleted === true) throw notFound();
    const next = { ...applyPatch(current, subSchema, ctx.body), updatedAt: new Date().toISOString() };
    throwIfOversized(next);
    if (resource.scope === 'company')
      await refuseUnknownRefs(ctx.caller.companyId, next, current, '', ctx.caller.sub);
    return next;
  });
  if (!changed) throw notFound();
  return { body: changed.after };
});

const subDelete = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const parent = await loadForRoute(ctx, resource, ctx.params.id, 'write');
  const { sub } = subSchemaOf(resource, ctx.route.subResource);
  const ref = subCollectionOf(resource, ctx.caller, parent._id, sub);
  const changed = await changeItem(ref, ctx.params.subId, (current) => ({
    ...current,
    deleted: true,
    deletedAt: new Date().toISOString(),
  }));
  if (!changed) throw notFound();
  return { body: changed.after };
});

/** The generic calls of 02 §7 for any declared resource; an area function spreads these into its operations. */
export const GENERIC_OPERATIONS: Operations = {
  'generic.list': list,
  'generic.search': search,
  'generic.get': get,
  'generic.create': create,
  'generic.bulk': bulk,
  'generic.update': update,
  'generic.delete': remove,
  'generic.restore': restore,
  'generic.schema': schema,
  'generic.sub.list': subList,
  'generic.sub.get': subGet,
  'generic.sub.create': subCreate,
  'generic.sub.update': subUpdate,
  'generic.sub.delete': subDelete,
};

/** One generic call by name, for an area that wraps it with rules of its own. */
export function genericOperation(name: string): Operation {
  const op = GENERIC_OPERATIONS[name];
  if (!op) throw new Error(`${name} is not a generic operation`);
  return op;
}
