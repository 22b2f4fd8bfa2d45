import type { Caller } from '../../shared/access/caller.ts';
import { type ImportMapping, isUpsert, type RecordImportType } from '../../shared/imports/import-mapping.ts';
import type { TextRecord } from '../../shared/imports/text-rows.ts';
import {
  IMPORT_MODEL_NOUNS,
  type ImportModel,
  type ImportRow,
} from '../../shared/schemas/register-imports.ts';
import { findResource } from '../../shared/system/resources.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import type { CollectionRef, StoredItem } from '../core/data/item-repository.ts';
import {
  type ImportBatchContext,
  type PlannedImport,
  type PlannedItem,
  type RollbackRules,
  type RowPlanner,
  rollbackBatch,
  startImport,
  writeImport,
} from '../core/imports/register-import-service.ts';
import { ApiError, FORBIDDEN_MESSAGE } from '../core/lib/errors.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { indexForSearch } from '../core/search-index/search-index-service.ts';
import type { OutcomeTotals, RowOutcome, UndoEntry } from './import-records.ts';
import { RECORD_KEYS, type RecordKeys } from './record-keys.ts';

/**
 * Imports of register items (sites, entities, meters) through the wizard: each row is judged by the
 * planner that the resource's own CSV import and create calls use, so a row fails with the message the
 * create call would give, and the good rows are written as one batch named by the import's id, which the
 * resource's own rollback (or the wizard's) takes back.
 */

export interface RecordKind {
  model: ImportModel;
  plan: RowPlanner;
  rules: RollbackRules;
}

/**
 * The planner and rollback rules of each type, given by the functions that run imports: they hold the
 * resources' own services, which other functions need not carry, and are loaded on the first import of
 * their type.
 */
const KINDS = new Map<RecordImportType, () => Promise<RecordKind>>();

export function registerRecordImport(type: RecordImportType, load: () => Promise<RecordKind>): void {
  KINDS.set(type, load);
}

async function kindOf(type: RecordImportType): Promise<RecordKind> {
  const load = KINDS.get(type);
  if (!load) throw new Error(`No planner for imports of ${type}`);
  return load();
}

export interface RecordPlan {
  outcomes: RowOutcome[];
  totals: OutcomeTotals;
  items: PlannedItem[];
  updates: PlannedUpdate[];
  batch: ImportBatchContext;
  written?: PlannedImport['written'];
}

/** The file's data rows by field, as the mapping names them; rows of empty cells are not rows. */
async function rowsOf(mapping: ImportMapping, headerRows: number, records: AsyncIterable<TextRecord[]>) {
  const rows: ImportRow[] = [];
  const cells = new Map<number, string[]>();
  let skipped = 0;
  for await (const batch of records) {
    for (const rec of batch) {
      if (skipped < headerRows) {
        skipped++;
        continue;
      }
      if (rec.fields.every((f) => f.trim() === '')) continue;
      const values: Record<string, string> = {};
      for (const [field, col] of Object.entries(mapping.columns)) {
        const value = (rec.fields[col] ?? '').trim();
        if (value !== '') values[field] = value;
      }
      rows.push({ row: rec.row, values });
      cells.set(rec.row, rec.fields);
    }
  }
  return { rows, cells };
}

/** An existing item a row updates: the fields it changes, their new values, and the item as read. */
export interface PlannedUpdate {
  row: number;
  item: StoredItem;
  ref: CollectionRef;
  set: Record<string, unknown>;
}

/** The fields the import writes itself, never compared or copied from a row. */
const SERVER_FIELDS = new Set(['_id', 'companyId', 'batchId', 'createdAt', 'updatedAt', 'createdBy']);

/** Every row of the file matched to the item it names, when the import also updates items. */
async function matchRows(
  caller: Caller,
  keys: RecordKeys,
  rows: readonly ImportRow[],
  problems: Map<number, { field: string; message: string }>,
) {
  const index = await keys.load(caller.companyId);
  const matched = new Map<number, StoredItem>();
  const firstRowOf = new Map<string, number>();
  const planned: ImportRow[] = [];
  for (const r of rows) {
    const key = index.keyOfRow(r.values);
    const found = key ? index.find(key) : [];
    if (found.length > 1) {
      problems.set(r.row, {
        field: '_row',
        message: 'More than one item matches this row: it cannot say which to update',
      });
      continue;
    }
    const item = found[0];
    if (!item) {
      planned.push(r);
      continue;
    }
    const earlier = firstRowOf.get(item._id);
    if (earlier !== undefined) {
      problems.set(r.row, { field: '_row', message: `Updates the same item as row ${earlier}` });
      continue;
    }
    firstRowOf.set(item._id, r.row);
    matched.set(r.row, item);
    // The item's own fields stand for the columns the file leaves out.
    const base = keys.valuesOf(item);
    for (const [column, idCell] of Object.entries(keys.replaces ?? {}))
      if (r.values[column] !== undefined) delete base[idCell];
    const values = { ...base, ...r.values };
    for (const [column, spelling] of Object.entries(keys.spellings ?? {})) {
      const stored = base[column];
      const given = r.values[column];
      if (stored !== undefined && given !== undefined && spelling(stored) === spelling(given))
        values[column] = stored;
    }
    planned.push({ row: r.row, values });
  }
  return { index, matched, planned };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Judges every row: a create, an update naming the fields it changes, unchanged, or an error with the field and message the create call would give. */
export async function planRecords(
  caller: Caller,
  type: RecordImportType,
  mapping: ImportMapping,
  headerRows: number,
  records: AsyncIterable<TextRecord[]>,
  batchId?: string,
  fileName?: string,
): Promise<RecordPlan> {
  const { rows, cells } = await rowsOf(mapping, headerRows, records);
  const batch = startImport(caller, batchId, fileName);
  const kind = await kindOf(type);
  const keys = isUpsert(mapping) ? RECORD_KEYS[type] : undefined;
  const early = new Map<number, { field: string; message: string }>();
  const match = keys ? await matchRows(caller, keys, rows, early) : undefined;
  const replacing = new Set([...(match?.matched.values() ?? [])].map((i) => i._id));
  const planned = await kind.plan(caller, match?.planned ?? rows, batch, replacing);
  const failed = new Map<number, { field: string; message: string }>([
    ...early,
    ...planned.problems.list().map((p) => [p.row, p] as const),
  ]);

  const items: PlannedItem[] = [];
  const updates: PlannedUpdate[] = [];
  const changesOf = new Map<number, string[]>();
  const resource = findResource(kind.model);
  const resolver = new LineageResolver(caller.companyId, caller);
  for (const p of planned.items) {
    const existing = match?.matched.get(p.row);
    if (!existing || !keys || !match) {
      items.push(p);
      continue;
    }
    // As PATCH: the caller must be able to write the item as it is, and as it would be (checked on the
    // planned item by the planner).
    if (resource && !(await mayAccessItem(resource, caller, existing, 'write', resolver))) {
      failed.set(p.row, { field: '_id', message: FORBIDDEN_MESSAGE });
      continue;
    }
    const mapped = new Set(
      Object.keys(mapping.columns).flatMap((column) => keys.fieldsOf[column] ?? [column]),
    );
    const set: Record<string, unknown> = {};
    for (const field of mapped) {
      if (SERVER_FIELDS.has(field)) continue;
      const next = p.item[field];
      if (next === undefined || sameValue(next, existing[field])) continue;
      set[field] = next;
    }
    changesOf.set(p.row, Object.keys(set));
    if (Object.keys(set).length > 0)
      updates.push({ row: p.row, item: existing, ref: match.index.refOf(existing), set });
  }
  const outcomes: RowOutcome[] = rows.map((r) => {
    const p = failed.get(r.row);
    if (p)
      return {
        row: r.row,
        outcome: 'error',
        field: p.field,
        reason: p.message,
        cells: cells.get(r.row) ?? [],
      };
    const changes = changesOf.get(r.row);
    if (changes === undefined) return { row: r.row, outcome: 'create' };
    return changes.length > 0
      ? { row: r.row, outcome: 'update', changes }
      : { row: r.row, outcome: 'unchanged' };
  });
  const totals: OutcomeTotals = { rows: outcomes.length, create: 0, update: 0, unchanged: 0, error: 0 };
  for (const o of outcomes) totals[o.outcome]++;
  return {
    outcomes,
    totals,
    items,
    updates,
    batch,
    ...(planned.written ? { written: planned.written } : {}),
  };
}

/** Writes the plan's items as one batch, then its updates; answers what a rollback needs to undo both. */
export async function writeRecords(
  caller: Caller,
  type: RecordImportType,
  plan: RecordPlan,
  fileName: string | undefined,
): Promise<UndoEntry[]> {
  const kind = await kindOf(type);
  if (plan.items.length > 0)
    await writeImport(caller, plan.batch, {
      model: kind.model,
      fileName,
      items: plan.items,
      ...(plan.written ? { written: plan.written } : {}),
    });
  const undo: UndoEntry[] = plan.items.map((i) => ({ kind: 'item', id: i.item._id, row: i.row }));
  if (plan.updates.length === 0) return undo;
  const updatedAt = plan.batch.importedAt;
  const resource = findResource(kind.model);
  const resolver = new LineageResolver(caller.companyId, caller);
  const skipped: number[] = [];
  await inPool(plan.updates, 16, async (u) => {
    let before: Record<string, unknown> = {};
    const changed = await changeItem(u.ref, u.item._id, async (current) => {
      // An item changed or removed since the file was judged is left as it now is.
      if (current.deleted === true || current.updatedAt !== u.item.updatedAt) return undefined;
      const next: StoredItem = { ...current, ...u.set, updatedAt };
      if (resource && !(await mayAccessItem(resource, caller, next, 'write', resolver))) return undefined;
      before = Object.fromEntries(Object.keys(u.set).map((f) => [f, current[f] ?? null]));
      return next;
    });
    if (!changed?.written) {
      skipped.push(u.row);
      return;
    }
    undo.push({
      kind: 'update',
      id: u.item._id,
      ...(typeof u.item.accountId === 'string' && kind.model === 'contracts'
        ? { accountId: u.item.accountId }
        : {}),
      before,
      updatedAt,
      row: u.row,
    });
    if (resource?.scope === 'company') await indexForSearch(caller.companyId, kind.model, changed.after);
  });
  const updated = plan.updates.length - skipped.length;
  await writeActivity(caller, {
    type: 'import',
    model: kind.model,
    batchId: plan.batch.batchId,
    message: `${updated} ${IMPORT_MODEL_NOUNS[kind.model]} updated${fileName ? ` from ${fileName}` : ''}${skipped.length > 0 ? `, ${skipped.length} left as changed since the preview` : ''}`,
  });
  return undo;
}

/**
 * What a write of the plan will change, saved before it starts: the ids of the items it creates and, for
 * each item it updates, the fields' values before and the moment it stamps. A delivery after a worker
 * died midway takes these back (`takeBackDeadRun`) before judging the file again.
 */
export async function recordJournal(type: RecordImportType, plan: RecordPlan): Promise<UndoEntry[]> {
  const contracts = (await kindOf(type)).model === 'contracts';
  return [
    ...plan.items.map((i): UndoEntry => ({ kind: 'item', id: i.item._id, row: i.row })),
    ...plan.updates.map(
      (u): UndoEntry => ({
        kind: 'update',
        id: u.item._id,
        ...(contracts && typeof u.item.accountId === 'string' ? { accountId: u.item.accountId } : {}),
        before: Object.fromEntries(Object.keys(u.set).map((f) => [f, u.item[f] ?? null])),
        updatedAt: plan.batch.importedAt,
        row: u.row,
      }),
    ),
  ].sort((a, b) => a.row - b.row);
}

/**
 * Takes back what a run of the import that died midway wrote, as its journal says: the items it created
 * go and the items it updated get their earlier values, unless someone changed them since. The file is
 * then judged against the register as it was before the import, so its rows are created and updated
 * once, and the finished import's rollback covers all of them.
 */
export async function takeBackDeadRun(
  caller: Caller,
  type: RecordImportType,
  batchId: string,
  journal: readonly UndoEntry[],
): Promise<void> {
  try {
    await rollbackRecords(caller, type, batchId, journal);
  } catch (err) {
    // The run died before recording its batch: it created nothing, and its updates came after.
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    await rollbackRecords(
      caller,
      type,
      batchId,
      journal.filter((e) => e.kind !== 'item'),
    );
  }
}

const CHANGED_SINCE = 'Changed since the import, so kept as it is now';

/**
 * Takes the batch back, keeping items edited or built on since, each reported with its row; items the
 * import updated get their earlier values again, unless someone changed them since.
 */
export async function rollbackRecords(
  caller: Caller,
  type: RecordImportType,
  batchId: string,
  undo: readonly UndoEntry[],
): Promise<{ removed: number; restored: number; kept: RowOutcome[] }> {
  const kind = await kindOf(type);
  const rowOf = new Map(undo.flatMap((e) => (e.kind === 'item' ? [[e.id, e.row] as const] : [])));
  const kept: RowOutcome[] = [];
  let removed = 0;
  if (rowOf.size > 0) {
    const out = await rollbackBatch(caller, kind.model, batchId, kind.rules);
    removed = out.removed;
    for (const k of out.kept)
      kept.push({
        row: rowOf.get(k._id) ?? 0,
        outcome: 'unchanged',
        field: '_id',
        reason: `${k.name}: ${k.reason}`,
      });
  }
  const updates = undo.filter((e): e is Extract<UndoEntry, { kind: 'update' }> => e.kind === 'update');
  let restored = 0;
  const keys = RECORD_KEYS[type];
  if (updates.length > 0 && keys) {
    const resource = findResource(kind.model);
    const index = await keys.load(caller.companyId);
    const restoredAt = new Date().toISOString();
    await inPool(updates, 16, async (e) => {
      const ref = index.refOf({ _id: e.id, ...(e.accountId ? { accountId: e.accountId } : {}) });
      const changed = await changeItem(ref, e.id, (current) => {
        if (current.deleted === true || current.updatedAt !== e.updatedAt) return undefined;
        const next: StoredItem = { ...current, updatedAt: restoredAt };
        for (const [field, value] of Object.entries(e.before)) {
          if (value === null) delete next[field];
          else next[field] = value;
        }
        return next;
      });
      if (changed?.written) {
        restored++;
        if (resource?.scope === 'company') await indexForSearch(caller.companyId, kind.model, changed.after);
        return;
      }
      const name = changed ? kind.rules.nameOf(changed.after) : e.id;
      kept.push({ row: e.row, outcome: 'unchanged', field: '_id', reason: `${name}: ${CHANGED_SINCE}` });
    });
    await writeActivity(caller, {
      type: 'import-rollback',
      model: kind.model,
      batchId,
      message: `${restored} ${IMPORT_MODEL_NOUNS[kind.model]} restored to their values before the import`,
    });
  }
  kept.sort((a, b) => a.row - b.row);
  return { removed, restored, kept };
}
