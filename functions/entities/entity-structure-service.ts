import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { entitySearchQuery } from '../../shared/schemas/queries.ts';
import type { EntityNode } from '../../shared/schemas/register.ts';
import { assetFieldsOf } from '../assets/index.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import type { Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { compact } from '../core/search-index/search-terms.ts';
import { allEntities } from './entity-repository.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A company's live entities and how they hang together. */
export class EntityHierarchy {
  readonly byId: ReadonlyMap<string, StoredItem>;
  private readonly childrenOf = new Map<string, StoredItem[]>();

  constructor(entities: readonly StoredItem[]) {
    const live = entities.filter((e) => e.deleted !== true);
    this.byId = new Map(live.map((e) => [e._id, e]));
    for (const e of live) {
      const parent = this.parentOf(e._id);
      if (!parent) continue;
      const list = this.childrenOf.get(parent) ?? [];
      list.push(e);
      this.childrenOf.set(parent, list);
    }
    for (const list of this.childrenOf.values()) list.sort(byLegalName);
  }

  /** The parent's id, when the parent is a live entity of the company. */
  parentOf(id: string): string | undefined {
    const parent = str(this.byId.get(id)?.parentEntityId);
    return parent && this.byId.has(parent) ? parent : undefined;
  }

  /** Parents, nearest first; a cycle in stored data ends the walk rather than looping. */
  ancestorsOf(id: string): string[] {
    const out: string[] = [];
    let next = this.parentOf(id);
    while (next && next !== id && !out.includes(next)) {
      out.push(next);
      next = this.parentOf(next);
    }
    return out;
  }

  children(id: string): StoredItem[] {
    return this.childrenOf.get(id) ?? [];
  }

  /** Every subsidiary, however deep. */
  descendantsOf(id: string): Set<string> {
    const out = new Set<string>();
    const stack = [id];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      for (const child of this.children(next)) {
        if (out.has(child._id) || child._id === id) continue;
        out.add(child._id);
        stack.push(child._id);
      }
    }
    return out;
  }

  roots(): StoredItem[] {
    return [...this.byId.values()].filter((e) => !this.parentOf(e._id)).sort(byLegalName);
  }

  /** Whether the caller may read or write an entity: a grant on it or on any of its parents. */
  allows(caller: Caller, access: 'read' | 'write', id: string): boolean {
    return canAccessItem(caller, access, { entityId: id, entityAncestors: this.ancestorsOf(id) });
  }
}

const byLegalName = (a: StoredItem, b: StoredItem) =>
  String(a.legalName ?? '').localeCompare(String(b.legalName ?? ''), 'en-GB');

export async function loadHierarchy(companyId: string): Promise<EntityHierarchy> {
  return new EntityHierarchy(await allEntities(companyId));
}

async function assetCounts(companyId: string): Promise<Map<string, number>> {
  const assets = await assetFieldsOf(companyId, ['entityId']);
  const counts = new Map<string, number>();
  for (const a of assets) {
    const id = str(a.entityId);
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function nodeOf(
  h: EntityHierarchy,
  counts: Map<string, number>,
  e: StoredItem,
  seen: Set<string>,
): EntityNode {
  seen.add(e._id);
  const children = h
    .children(e._id)
    .filter((c) => !seen.has(c._id))
    .map((c) => nodeOf(h, counts, c, seen));
  const assetsCount = counts.get(e._id) ?? 0;
  return {
    _id: e._id,
    legalName: String(e.legalName ?? ''),
    ...(str(e.companyNumber) ? { companyNumber: str(e.companyNumber) } : {}),
    parentEntityId: h.parentOf(e._id) ?? null,
    assetsCount,
    totalAssetsCount: assetsCount + children.reduce((n, c) => n + c.totalAssetsCount, 0),
    children,
  };
}

/**
 * The tops of what the caller may see: the company's root entities for company users; for users with
 * entity grants, each readable entity whose parent they cannot read (a grant reaches every subsidiary).
 */
function visibleRoots(h: EntityHierarchy, caller: Caller): StoredItem[] {
  if (isCompanyWide(caller)) return h.roots();
  return [...h.byId.values()]
    .filter((e) => h.allows(caller, 'read', e._id))
    .filter((e) => {
      const parent = h.parentOf(e._id);
      return !parent || !h.allows(caller, 'read', parent);
    })
    .sort(byLegalName);
}

/** GET /entities/structure: the company's tree, each entity with its assets count. */
const structure = operation({}, async (ctx): Promise<OpResult> => {
  const [h, counts] = await Promise.all([
    loadHierarchy(ctx.caller.companyId),
    assetCounts(ctx.caller.companyId),
  ]);
  const seen = new Set<string>();
  const data = visibleRoots(h, ctx.caller).map((e) => nodeOf(h, counts, e, seen));
  return { body: { data, total: seen.size } };
});

async function readableEntity(ctx: WithParams<'id'>): Promise<{ h: EntityHierarchy; entity: StoredItem }> {
  const h = await loadHierarchy(ctx.caller.companyId);
  const entity = h.byId.get(ctx.params.id);
  if (!entity || !h.allows(ctx.caller, 'read', entity._id)) throw notFound();
  return { h, entity };
}

/** GET /entities/{id}/structure: one entity with its subsidiaries below it. */
const subtree = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const [{ h, entity }, counts] = await Promise.all([readableEntity(ctx), assetCounts(ctx.caller.companyId)]);
  return { body: nodeOf(h, counts, entity, new Set()) };
});

/** GET /entities/{id}/ultimate-parent: the top of the entity's group, as far up as the caller may read. */
const ultimateParent = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const { h, entity } = await readableEntity(ctx);
  let top = entity;
  for (const id of h.ancestorsOf(entity._id)) {
    const parent = h.byId.get(id);
    if (!parent || !h.allows(ctx.caller, 'read', id)) break;
    top = parent;
  }
  return { body: top };
});

/**
 * GET /entities/search?query=: entities whose legal name (or company number) contains the query, those
 * that are or start with it first, then by name; each with its parent's name.
 */
const search = operation({ query: entitySearchQuery }, async (ctx): Promise<OpResult> => {
  const q = compact(ctx.query.query ?? '');
  if (!q) throw formError({ query: 'This field is required' });
  const { limit, skip } = ctx.query;
  const h = await loadHierarchy(ctx.caller.companyId);
  const rank = (e: StoredItem) => {
    const name = compact(String(e.legalName ?? ''));
    if (name === q) return 0;
    if (name.startsWith(q)) return 1;
    if (name.includes(q)) return 2;
    return compact(String(e.companyNumber ?? '')).includes(q) ? 3 : -1;
  };
  const matches = [...h.byId.values()]
    .map((e) => ({ e, rank: rank(e) }))
    .filter((m) => m.rank >= 0 && h.allows(ctx.caller, 'read', m.e._id))
    .sort((a, b) => a.rank - b.rank || byLegalName(a.e, b.e));
  const data = matches.slice(skip, skip + limit).map(({ e }) => {
    const parent = h.byId.get(h.parentOf(e._id) ?? '');
    return { ...e, parentEntity: parent ? { _id: parent._id, legalName: parent.legalName } : null };
  });
  return { body: { data, total: matches.length, limit, skip } };
});

export const ENTITY_STRUCTURE_OPERATIONS: Operations = {
  'entities.structure': structure,
  'entities.subtree': subtree,
  'entities.ultimateParent': ultimateParent,
  'entities.search': search,
};
