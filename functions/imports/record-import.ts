import type { Caller } from '../../shared/access/caller.ts';
import type { ImportMapping, RecordImportType } from '../../shared/imports/import-mapping.ts';
import type { TextRecord } from '../../shared/imports/text-rows.ts';
import type { ImportModel, ImportRow } from '../../shared/schemas/register-imports.ts';
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
import type { OutcomeTotals, RowOutcome, UndoEntry } from './import-records.ts';

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

/** Judges every row: a create, or an error with the field and the message the create call would give. */
export async function planRecords(
  caller: Caller,
  type: RecordImportType,
  mapping: ImportMapping,
  headerRows: number,
  records: AsyncIterable<TextRecord[]>,
  batchId?: string,
): Promise<RecordPlan> {
  const { rows, cells } = await rowsOf(mapping, headerRows, records);
  const batch = startImport(caller, batchId);
  const { problems, items, written } = await (await kindOf(type)).plan(caller, rows, batch);
  const failed = new Map(problems.list().map((p) => [p.row, p]));
  const outcomes: RowOutcome[] = rows.map((r) => {
    const p = failed.get(r.row);
    return p
      ? { row: r.row, outcome: 'error', field: p.field, reason: p.message, cells: cells.get(r.row) ?? [] }
      : { row: r.row, outcome: 'create' };
  });
  const totals: OutcomeTotals = { rows: outcomes.length, create: 0, update: 0, unchanged: 0, error: 0 };
  for (const o of outcomes) totals[o.outcome]++;
  return { outcomes, totals, items, batch, ...(written ? { written } : {}) };
}

/** Writes the plan's items as one batch; answers what a rollback needs to name their rows. */
export async function writeRecords(
  caller: Caller,
  type: RecordImportType,
  plan: RecordPlan,
  fileName: string | undefined,
): Promise<UndoEntry[]> {
  if (plan.items.length > 0)
    await writeImport(caller, plan.batch, {
      model: (await kindOf(type)).model,
      fileName,
      items: plan.items,
      ...(plan.written ? { written: plan.written } : {}),
    });
  return plan.items.map((i) => ({ kind: 'item', id: i.item._id, row: i.row }));
}

/** Takes the batch back, keeping items edited or built on since, each reported with its row. */
export async function rollbackRecords(
  caller: Caller,
  type: RecordImportType,
  batchId: string,
  undo: readonly UndoEntry[],
) {
  const rowOf = new Map(undo.flatMap((e) => (e.kind === 'item' ? [[e.id, e.row] as const] : [])));
  if (rowOf.size === 0) return { removed: 0, kept: [] as RowOutcome[] };
  const kind = await kindOf(type);
  const out = await rollbackBatch(caller, kind.model, batchId, kind.rules);
  const kept: RowOutcome[] = out.kept
    .map((k) => ({
      row: rowOf.get(k._id) ?? 0,
      outcome: 'unchanged' as const,
      field: '_id',
      reason: `${k.name}: ${k.reason}`,
    }))
    .sort((a, b) => a.row - b.row);
  return { removed: out.removed, kept };
}
