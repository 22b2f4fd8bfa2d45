import { idSchema } from '../../shared/schemas/common.ts';
import { entitySchema } from '../../shared/schemas/entity.ts';
import {
  ENTITY_IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  type ImportRow,
} from '../../shared/schemas/register-imports.ts';
import { findResource } from '../../shared/system/resources.ts';
import { assetFieldsOf } from '../assets/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import type { PlannedItem, RollbackRules, RowPlanner } from '../core/imports/register-import-service.ts';
import { csvUpload, importRollback, RowProblems } from '../core/imports/register-import-service.ts';
import { FORBIDDEN_MESSAGE } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Operations } from '../core/middleware/api-context.ts';
import { type EntityHierarchy, loadHierarchy } from './entity-structure-service.ts';
import { ENTITY_MESSAGES } from './entity-write-service.ts';

/**
 * POST /entities/import: a CSV of entities (legalName, companyNumber, parentEntity or parentEntityId,
 * address columns). A parent is an entity the company has, by id or by legal name, or another row of
 * the same file by legal name, so a whole group can arrive in one file, in any row order.
 */

const rowData = (v: Record<string, string>) => {
  const address = Object.fromEntries(
    ['streetAddress', 'locality', 'region', 'postCode', 'country']
      .filter((f) => v[f] !== undefined)
      .map((f) => [f, v[f]]),
  );
  return {
    legalName: v.legalName ?? '',
    ...(v.companyNumber ? { companyNumber: v.companyNumber } : {}),
    ...(Object.keys(address).length > 0 ? { address } : {}),
  };
};

const entityRowSchema = entitySchema.omit({ parentEntityId: true });
const lower = (s: unknown) => String(s ?? '').toLowerCase();

/** Where a row's entity goes: under an entity the company has, under another row, or at the top. */
type Parent = { kind: 'existing'; id: string } | { kind: 'row'; index: number } | { kind: 'top' };

interface PlannedRow {
  row: ImportRow;
  id: string;
  data: Record<string, unknown>;
  parent: Parent;
}

/** Entities the company has and rows of the file, by lower-cased legal name. */
interface NameIndex {
  existing: Map<string, StoredItem[]>;
  rows: Map<string, number[]>;
}

function nameIndex(h: EntityHierarchy, rows: readonly ImportRow[]): NameIndex {
  const existing = new Map<string, StoredItem[]>();
  for (const e of h.byId.values())
    existing.set(lower(e.legalName), [...(existing.get(lower(e.legalName)) ?? []), e]);
  const inFile = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const name = lower(r.values.legalName);
    if (name) inFile.set(name, [...(inFile.get(name) ?? []), i]);
  });
  return { existing, rows: inFile };
}

function resolveParent(
  h: EntityHierarchy,
  names: NameIndex,
  rows: readonly ImportRow[],
  index: number,
  problems: RowProblems,
): Parent | undefined {
  const { row, values } = rows[index] as ImportRow;
  if (values.parentEntityId && values.parentEntity) {
    problems.add(row, 'parentEntity', 'Give parentEntity or parentEntityId, not both');
    return undefined;
  }
  if (values.parentEntityId) {
    const id = idSchema.safeParse(values.parentEntityId);
    if (!id.success || !h.byId.has(id.data)) {
      problems.add(row, 'parentEntityId', ENTITY_MESSAGES.parentNotFound);
      return undefined;
    }
    return { kind: 'existing', id: id.data };
  }
  if (!values.parentEntity) return { kind: 'top' };
  const name = lower(values.parentEntity);
  const existing = names.existing.get(name) ?? [];
  const inFile = (names.rows.get(name) ?? []).filter((i) => i !== index);
  if (existing.length + inFile.length === 0) {
    problems.add(row, 'parentEntity', `No entity called "${values.parentEntity}" exists or is in this file`);
    return undefined;
  }
  if (existing.length + inFile.length > 1) {
    problems.add(
      row,
      'parentEntity',
      `Several entities are called "${values.parentEntity}": give the parent's id in parentEntityId`,
    );
    return undefined;
  }
  // Exactly one of the two holds the parent now.
  const [found] = existing;
  const [inFileIndex] = inFile;
  if (found) return { kind: 'existing', id: found._id };
  return inFileIndex === undefined ? undefined : { kind: 'row', index: inFileIndex };
}

/** Rows whose parents, followed through the file, come back to them: a tree cannot loop. */
function cyclicRows(plans: readonly (PlannedRow | undefined)[]): Set<number> {
  const out = new Set<number>();
  plans.forEach((start, i) => {
    const seen = new Set<number>([i]);
    let parent = start?.parent;
    while (parent?.kind === 'row') {
      if (seen.has(parent.index)) {
        if (parent.index === i) out.add(i);
        return;
      }
      seen.add(parent.index);
      parent = plans[parent.index]?.parent;
    }
  });
  return out;
}

/** Items an import of entities would create, one per good row, and the problems of the others by row. */
export const planEntityRows: RowPlanner = async (caller, rows, batch, replacing) => {
  const h = await loadHierarchy(caller.companyId);
  const problems = new RowProblems();

  const names = nameIndex(h, rows);
  const plans: (PlannedRow | undefined)[] = rows.map((r, i) => {
    const parsed = entityRowSchema.safeParse(rowData(r.values));
    if (!parsed.success) problems.addZod(r.row, parsed.error);
    const parent = resolveParent(h, names, rows, i, problems);
    if (!parsed.success || !parent) return undefined;
    return { row: r, id: newId(), data: parsed.data, parent };
  });
  for (const i of cyclicRows(plans)) {
    const row = rows[i];
    if (row) problems.add(row.row, 'parentEntity', ENTITY_MESSAGES.cycle);
    plans[i] = undefined;
  }

  // One legal name once under one parent, as the wizard keeps it.
  const taken = new Set<string>();
  // An entity a row updates keeps its own name.
  for (const e of h.byId.values())
    if (!replacing?.has(e._id)) taken.add(`${h.parentOf(e._id) ?? 'top'}|${lower(e.legalName)}`);
  for (const plan of plans) {
    if (!plan) continue;
    const parentKey =
      plan.parent.kind === 'existing'
        ? plan.parent.id
        : plan.parent.kind === 'row'
          ? (plans[plan.parent.index]?.id ?? `row${plan.parent.index}`)
          : 'top';
    const key = `${parentKey}|${lower(plan.data.legalName)}`;
    if (taken.has(key)) problems.add(plan.row.row, 'legalName', ENTITY_MESSAGES.duplicate);
    taken.add(key);
  }
  plans.forEach((p, i) => {
    if (p && problems.has(p.row.row)) plans[i] = undefined;
  });
  // A row under a row that cannot be imported cannot be either: its parent would not exist.
  for (let dropped = true; dropped; ) {
    dropped = false;
    plans.forEach((p, i) => {
      if (p?.parent.kind === 'row' && !plans[p.parent.index]) {
        problems.add(p.row.row, 'parentEntity', PARENT_ROW_FAILED);
        plans[i] = undefined;
        dropped = true;
      }
    });
  }

  const resource = findResource('entities');
  const resolver = new LineageResolver(caller.companyId, caller);
  const items: PlannedItem[] = [];
  for (const p of plans) {
    if (!p) continue;
    const parentEntityId =
      p.parent.kind === 'existing'
        ? p.parent.id
        : p.parent.kind === 'row'
          ? (plans[p.parent.index] as PlannedRow).id
          : null;
    const item = batch.stamp({ ...p.data, parentEntityId }, p.id);
    if (resource && !(await mayAccessItem(resource, caller, item, 'write', resolver))) {
      problems.add(p.row.row, 'parentEntityId', FORBIDDEN_MESSAGE);
      continue;
    }
    items.push({ row: p.row.row, name: String(p.data.legalName), item });
  }
  return { problems, items };
};

const PARENT_ROW_FAILED = 'Its parent entity, in another row of this file, cannot be imported';

export const ENTITY_ROLLBACK: RollbackRules = {
  nameOf: (e) => String(e.legalName ?? e._id),
  /**
   * An imported entity stays while it holds sites, or subsidiaries that are not being removed with it:
   * soft-deleting it would leave them under an entity that is gone.
   */
  keepers: async (candidates, companyId) => {
    const kept = new Map<string, string>();
    const h = await loadHierarchy(companyId);
    const assets = await assetFieldsOf(companyId, ['entityId']);
    const holding = new Set(assets.map((a) => String(a.entityId)));
    const removable = new Set(candidates.map((c) => c._id));
    for (const id of removable) {
      if (holding.has(id)) {
        kept.set(id, IMPORT_MESSAGES.entityInUse);
        removable.delete(id);
      }
    }
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of removable) {
        if (h.children(id).some((c) => !removable.has(c._id))) {
          kept.set(id, IMPORT_MESSAGES.entityInUse);
          removable.delete(id);
          changed = true;
        }
      }
    }
    return kept;
  },
  dependsOn: (e) => (typeof e.parentEntityId === 'string' ? [e.parentEntityId] : []),
  /** Deepest first, so a subsidiary that cannot go keeps its parents. */
  levels: (items) => {
    const byId = new Map(items.map((i) => [i._id, i]));
    const depth = (item: StoredItem): number => {
      let d = 0;
      for (let p = item.parentEntityId; typeof p === 'string' && byId.has(p) && d < items.length; d++)
        p = byId.get(p)?.parentEntityId;
      return d;
    };
    const levels: StoredItem[][] = [];
    for (const item of items) {
      const d = depth(item);
      while (levels.length <= d) levels.push([]);
      levels[d]?.push(item);
    }
    return levels.reverse();
  },
};

export const ENTITY_IMPORT_OPERATIONS: Operations = {
  'entities.import': csvUpload(ENTITY_IMPORT_COLUMNS, planEntityRows, 'entities'),
  'entities.importRollback': importRollback('entities', ENTITY_ROLLBACK),
};
