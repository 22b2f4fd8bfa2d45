import type * as z from 'zod';
import type { Caller } from '../../../shared/access/caller.ts';
import { type ImportFileQuery, importFileQuery } from '../../../shared/schemas/import-file-query.ts';
import {
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MAX_REPORTED_ROWS,
  IMPORT_MESSAGES,
  IMPORT_MODEL_NOUNS,
  type ImportColumn,
  type ImportModel,
  type ImportResult,
  type ImportRollbackResult,
  type ImportRow,
  importFileBodySchema,
  importRollbackSchema,
  readImportFile,
} from '../../../shared/schemas/register-imports.ts';
import { writeActivity } from '../activity/activity-service.ts';
import { getItems } from '../data/batch-reads.ts';
import { changeItem } from '../data/conditional-writes.ts';
import type { CollectionRef, StoredItem } from '../data/item-repository.ts';
import { ApiError, badRequest, formError, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { inPool } from '../lib/in-pool.ts';
import { createLogger } from '../lib/logger.ts';
import { formMessagesOf, parseOrThrow } from '../lib/validation.ts';
import type { AnyOpContext, OpContext, Operation } from '../middleware/api-context.ts';
import { operation } from '../middleware/operation.ts';
import { resourceRef } from '../resources/resource-refs.ts';
import { clearIndexVersion, putManifests } from '../search-index/search-index-repository.ts';
import { entriesOf } from '../search-index/search-index-service.ts';
import { searchTypeOf } from '../search-index/search-terms.ts';
import {
  deleteImportBatch,
  deleteKeys,
  getImportBatch,
  getSearchEntryKeys,
  type ImportBatch,
  type NewItem,
  putImportBatch,
  putKeyedItems,
  putNewItems,
} from './import-batch-repository.ts';

/**
 * What the CSV imports of entities and sites share: reading the file from the request, reporting bad
 * rows all at once, writing a batch all or nothing, and rolling a batch back.
 */

const log = createLogger({ component: 'register-import' });

/** What reading an import's file takes of the request: its body and the query the route declares. */
export type ImportFileContext = Pick<OpContext, 'body'> & { query: ImportFileQuery };

/** The file of an import request: CSV text as the body, or JSON `{ fileName, csv }`. */
export function importFileOf(ctx: ImportFileContext): { text: string; fileName?: string } {
  const body = ctx.body;
  const file =
    typeof body === 'string'
      ? { text: body, fileName: ctx.query.fileName }
      : (() => {
          const parsed = parseOrThrow(importFileBodySchema, body ?? {});
          return { text: parsed.csv, fileName: parsed.fileName || undefined };
        })();
  if (Buffer.byteLength(file.text, 'utf8') > IMPORT_MAX_FILE_BYTES)
    throw formError({ file: IMPORT_MESSAGES.tooLarge }, IMPORT_MESSAGES.tooLarge);
  if (file.text.trim() === '') throw formError({ file: IMPORT_MESSAGES.noFile }, IMPORT_MESSAGES.noFile);
  return file;
}

/** The rows of the file, or a 400 naming what is wrong with the file or with which rows. */
export function importRowsOf(text: string, columns: readonly ImportColumn[]): ImportRow[] {
  const read = readImportFile(text, columns);
  if (!read.ok) throw new ApiError(400, 'IMPORT_INVALID', read.message, { formMessages: read.formMessages });
  return read.rows;
}

/** Problems found in rows, by row number and field; reported together, so one upload shows them all. */
export class RowProblems {
  private readonly byRow = new Map<number, Record<string, string>>();

  add(row: number, field: string, message: string): void {
    const fields = this.byRow.get(row) ?? {};
    fields[field] ??= message;
    this.byRow.set(row, fields);
  }

  /** Each issue of a failed zod parse, under its field; nested paths (address.postCode) by their last part. */
  addZod(row: number, error: z.core.$ZodError): void {
    for (const [path, message] of Object.entries(formMessagesOf(error))) {
      this.add(row, path.split('.').at(-1) ?? path, message);
    }
  }

  /** Each row with problems, in row order, with its first field and message. */
  list(): { row: number; field: string; message: string }[] {
    return [...this.byRow]
      .sort(([a], [b]) => a - b)
      .map(([row, fields]) => {
        const [field, message] = Object.entries(fields)[0] ?? ['_row', ''];
        return { row, field, message };
      });
  }

  has(row: number, field?: string): boolean {
    const fields = this.byRow.get(row);
    return field ? fields?.[field] !== undefined : fields !== undefined;
  }

  /** A 400 with `rows.{row}.{field}` messages, for the first rows with problems, if there are any. */
  throwIfAny(): void {
    if (this.byRow.size === 0) return;
    const rows = [...this.byRow.keys()].sort((a, b) => a - b);
    const formMessages: Record<string, string> = {};
    for (const row of rows.slice(0, IMPORT_MAX_REPORTED_ROWS)) {
      for (const [field, message] of Object.entries(this.byRow.get(row) ?? {}))
        formMessages[`rows.${row}.${field}`] = message;
    }
    const more = rows.length - IMPORT_MAX_REPORTED_ROWS;
    const message =
      IMPORT_MESSAGES.rowsInvalid(rows.length) +
      (more > 0 ? ` The first ${IMPORT_MAX_REPORTED_ROWS} are listed.` : '');
    throw new ApiError(400, 'IMPORT_INVALID', message, { formMessages });
  }
}

/** One import under way: its batch id, and the clock every item it creates is stamped with. */
export interface ImportBatchContext {
  batchId: string;
  importedAt: string;
  /** The uploaded file's name, which items made from its rows (invoices) are filed under. */
  fileName?: string;
  /** A new item of the batch, with its id and the fields the server owns. */
  stamp(data: Record<string, unknown>, id?: string): StoredItem;
}

export function startImport(
  caller: Caller,
  batchId: string = newId(),
  fileName?: string,
): ImportBatchContext {
  const importedAt = new Date().toISOString();
  return {
    batchId,
    importedAt,
    ...(fileName ? { fileName } : {}),
    stamp: (data, id = newId()) => ({
      ...data,
      _id: id,
      companyId: caller.companyId,
      batchId,
      createdAt: importedAt,
      updatedAt: importedAt,
      createdBy: caller.sub,
    }),
  };
}

export interface PlannedImport {
  model: ImportModel;
  fileName?: string;
  /**
   * The items the file describes, in file order, each with its row and the name it is shown by; `ref`
   * when the item belongs to a collection of its parent (a meter's contracts) rather than the model's.
   */
  items: { row: number; name: string; item: StoredItem; ref?: CollectionRef }[];
  /** What follows the items' writes (an invoice's validation entry and its place in the queue). */
  written?: (items: readonly StoredItem[]) => Promise<void>;
}

export type PlannedItem = PlannedImport['items'][number];

/** What a file's rows come to: the items its good rows create, and the problems of the others by row. */
export interface PlannedRows {
  problems: RowProblems;
  items: PlannedItem[];
  written?: PlannedImport['written'];
}

/** Judges a file's rows by the rules of the resource's own create call, as the caller would make it. */
export type RowPlanner = (
  caller: Caller,
  rows: readonly ImportRow[],
  batch: ImportBatchContext,
  /** Stored items that rows of the file update: not taken as duplicates of those rows. */
  replacing?: ReadonlySet<string>,
) => Promise<PlannedRows>;

/**
 * The CSV upload call of a model: the file's rows in `columns` are judged by `plan`; any bad row refuses
 * the whole file with every row's problems, otherwise the good rows are written as one batch (201).
 */
export function csvUpload(columns: readonly ImportColumn[], plan: RowPlanner, model: ImportModel): Operation {
  return operation({ query: importFileQuery }, async (ctx) => {
    const { text, fileName } = importFileOf(ctx);
    const rows = importRowsOf(text, columns);
    const batch = startImport(ctx.caller);
    const { problems, items, written } = await plan(ctx.caller, rows, batch);
    problems.throwIfAny();
    const result = await writeImport(ctx.caller, batch, { model, fileName, items, written });
    return { status: 201, body: result };
  });
}

/**
 * New items go into the search index in batches: they have no earlier entries to remove. Also for other
 * writers of many new entities, sites or accounts at once (the local demo data).
 */
export async function indexNewItems(companyId: string, model: string, items: readonly StoredItem[]) {
  const type = searchTypeOf(model);
  if (!type) return;
  try {
    const manifests = items.map((item) => {
      const entries = entriesOf(companyId, type, item);
      return { entries, manifest: { type, id: item._id, keys: entries.map(({ pk, sk }) => ({ pk, sk })) } };
    });
    await putKeyedItems(manifests.flatMap((m) => m.entries));
    await putManifests(
      companyId,
      manifests.filter((m) => m.entries.length > 0).map((m) => m.manifest),
    );
  } catch (error) {
    // As for single writes: the import stands, and the next search rebuilds the company's index.
    log.warn('Search index update after an import failed; the index will be rebuilt', {
      companyId,
      error: error instanceof Error ? error.message : String(error),
    });
    await clearIndexVersion(companyId).catch(() => undefined);
  }
}

/** Soft-deleted items leave the search index: their entries and manifests go, read and removed in batches. */
async function unindex(companyId: string, model: ImportModel, items: readonly StoredItem[]) {
  const type = searchTypeOf(model);
  if (!type || items.length === 0) return;
  try {
    const { manifests, entries } = await getSearchEntryKeys(
      companyId,
      type,
      items.map((i) => i._id),
    );
    await deleteKeys([...entries, ...manifests]);
  } catch (error) {
    log.warn('Search index update after a rollback failed; the index will be rebuilt', {
      companyId,
      error: error instanceof Error ? error.message : String(error),
    });
    await clearIndexVersion(companyId).catch(() => undefined);
  }
}

/**
 * Writes a checked import. The batch record (with every item id) is written first, so a batch cut short
 * can still be rolled back; a failed write removes what was written, record included, and the import
 * fails as a whole: the emulated table has no transactions to do this for us.
 */
export async function writeImport(
  caller: Caller,
  batch: ImportBatchContext,
  plan: PlannedImport,
): Promise<ImportResult> {
  const own = plan.items.filter((i) => i.ref === undefined);
  const ref = own.length > 0 ? resourceRef(caller.companyId, plan.model) : undefined;
  const itemPks = Object.fromEntries(plan.items.flatMap((i) => (i.ref ? [[i.item._id, i.ref.pk]] : [])));
  const record: ImportBatch = {
    batchId: batch.batchId,
    companyId: caller.companyId,
    model: plan.model,
    ...(plan.fileName ? { fileName: plan.fileName } : {}),
    importedAt: batch.importedAt,
    createdBy: caller.sub,
    itemIds: plan.items.map((i) => i.item._id),
    ...(Object.keys(itemPks).length > 0 ? { itemPks } : {}),
    status: 'writing',
  };
  await putImportBatch(record);
  const writes: NewItem[] = plan.items.map((i) => ({ ref: (i.ref ?? ref) as CollectionRef, item: i.item }));
  try {
    await putNewItems(writes);
  } catch (err) {
    await deleteKeys(writes.map(({ ref: r, item }) => ({ pk: r.pk, sk: item._id })))
      .then(() => deleteImportBatch(caller.companyId, batch.batchId))
      .catch((cleanup) =>
        log.error('Undoing a failed import failed', {
          batchId: batch.batchId,
          error: cleanup instanceof Error ? cleanup.message : String(cleanup),
        }),
      );
    throw err;
  }
  await putImportBatch({ ...record, status: 'complete' });
  await indexNewItems(
    caller.companyId,
    plan.model,
    own.map((i) => i.item),
  );
  await plan.written?.(plan.items.map((i) => i.item));
  const noun = IMPORT_MODEL_NOUNS[plan.model];
  await writeActivity(caller, {
    type: 'import',
    model: plan.model,
    batchId: batch.batchId,
    message: `${plan.items.length} ${noun} imported${plan.fileName ? ` from ${plan.fileName}` : ''}`,
  });
  return {
    batchId: batch.batchId,
    model: plan.model,
    ...(plan.fileName ? { fileName: plan.fileName } : {}),
    created: plan.items.length,
    items: plan.items.map(({ row, name, item }) => ({ row, _id: item._id, name })),
  };
}

/** What a model adds to a rollback: how its items are named, and which of them must stay. */
export interface RollbackRules {
  nameOf(item: StoredItem): string;
  /**
   * Of the batch's items that are unchanged since the import, those that must stay, with the reason:
   * removing them would leave something else without its entity or site. Asked only when there are any.
   */
  keepers(candidates: readonly StoredItem[], companyId: string): Promise<Map<string, string>>;
  /**
   * Groups removed one after the other (an entity's subsidiaries before it), so an item that turns out
   * to be needed still keeps what `dependsOn` names; by default one group.
   */
  levels?(items: readonly StoredItem[]): StoredItem[][];
  /** The batch items that must stay if this one stays (an entity's parents). */
  dependsOn?(item: StoredItem): string[];
  /**
   * Whether nobody has changed the item since the import: by default its updatedAt is still the import's
   * own moment; a model whose items the system itself works on afterwards (an invoice's validation) says
   * what a person's change is.
   */
  unchanged?(item: StoredItem, batch: ImportBatch): boolean;
  /** What goes with the removed items (an invoice's validation entry). */
  removed?(companyId: string, items: readonly StoredItem[]): Promise<void>;
}

/**
 * Rolls back an import: soft-deletes the items of the batch that nobody has changed since (their
 * updatedAt is still the import's own moment) and that nothing added later depends on. An item that was
 * edited after the import holds someone's work, so it is kept and reported rather than silently lost;
 * the batch is read from the caller's company only, so another company's batch cannot be named, and only
 * the ids the batch record lists are touched, so items of other batches never are. A second rollback of
 * the same batch changes nothing and reports the items as already removed.
 */
export async function rollbackImport(
  ctx: Pick<AnyOpContext, 'body' | 'caller'>,
  model: ImportModel,
  rules: RollbackRules,
): Promise<ImportRollbackResult> {
  const { batchId } = parseOrThrow(importRollbackSchema, ctx.body ?? {});
  return rollbackBatch(ctx.caller, model, batchId, rules);
}

/** The rollback call of a model's imports: the batch named in the body, by `rules`. */
export function importRollback(model: ImportModel, rules: RollbackRules): Operation {
  return operation({}, async (ctx) => ({ body: await rollbackImport(ctx, model, rules) }));
}

/** Rolls back the batch `batchId` of the caller's company, as `rollbackImport` describes. */
export async function rollbackBatch(
  caller: Caller,
  model: ImportModel,
  batchId: string,
  rules: RollbackRules,
): Promise<ImportRollbackResult> {
  const companyId = caller.companyId;
  const batch = await getImportBatch(companyId, batchId);
  if (!batch) throw notFound(IMPORT_MESSAGES.batchNotFound);
  if (batch.model !== model) throw badRequest(IMPORT_MESSAGES.wrongModel(batch.model), 'WRONG_IMPORT_MODEL');
  const pks = batch.itemPks ?? {};
  const ownIds = batch.itemIds.filter((id) => pks[id] === undefined);
  const modelRef = ownIds.length > 0 ? resourceRef(companyId, model) : undefined;
  const refOf = (id: string): CollectionRef => {
    const pk = pks[id];
    return pk ? { pk, indexes: [], searchFields: [] } : (modelRef as CollectionRef);
  };
  // One batch read per collection: a model's own, or each parent's (a meter's contracts).
  const byPk = new Map<string, string[]>();
  for (const id of batch.itemIds) {
    const pk = refOf(id).pk;
    const ids = byPk.get(pk);
    if (ids) ids.push(id);
    else byPk.set(pk, [id]);
  }
  const found = new Map<string, StoredItem>();
  for (const [pk, ids] of byPk) for (const [id, item] of await getItems(pk, ids)) found.set(id, item);
  const items = batch.itemIds.map((id) => found.get(id)).filter((i): i is StoredItem => i !== undefined);
  const unchanged = (item: StoredItem) =>
    item.batchId === batchId &&
    (rules.unchanged ? rules.unchanged(item, batch) : item.updatedAt === batch.importedAt);

  let alreadyRemoved = 0;
  const kept = new Map<string, string>();
  const candidates: StoredItem[] = [];
  for (const item of items) {
    if (item.deleted === true) alreadyRemoved++;
    else if (!unchanged(item)) kept.set(item._id, IMPORT_MESSAGES.changed);
    else candidates.push(item);
  }
  if (candidates.length > 0)
    for (const [id, reason] of await rules.keepers(candidates, companyId)) kept.set(id, reason);

  const deletedAt = new Date().toISOString();
  const removed: StoredItem[] = [];
  const byId = new Map(items.map((i) => [i._id, i]));
  const candidateIds = new Set(candidates.map((c) => c._id));
  // What stays keeps the batch items it depends on (an entity its parents), whatever else they are.
  const keepWithDependencies = (id: string, reason: string) => {
    if (!kept.has(id)) kept.set(id, reason);
    const item = byId.get(id);
    for (const up of item && rules.dependsOn ? rules.dependsOn(item) : [])
      if (candidateIds.has(up) && !kept.has(up)) keepWithDependencies(up, IMPORT_MESSAGES.parentOfKept);
  };
  for (const [id, reason] of [...kept]) keepWithDependencies(id, reason);
  for (const level of rules.levels ? rules.levels(candidates) : [candidates]) {
    await inPool(level, 16, async (item) => {
      if (kept.has(item._id)) return;
      // Judged again on the item as stored when written (revision-checked), so an edit made while the
      // rollback runs keeps the item, and the edit is never overwritten.
      const changed = await changeItem(refOf(item._id), item._id, (current) =>
        current.deleted !== true && unchanged(current)
          ? { ...current, deleted: true, deletedAt, deletedBy: caller.sub }
          : undefined,
      );
      if (changed?.written) removed.push(changed.after);
      else keepWithDependencies(item._id, IMPORT_MESSAGES.changed);
    });
  }
  await unindex(
    companyId,
    model,
    removed.filter((r) => pks[r._id] === undefined),
  );
  if (removed.length > 0) await rules.removed?.(companyId, removed);
  await putImportBatch({
    ...batch,
    status: 'rolled-back',
    rolledBackAt: deletedAt,
    rolledBackBy: caller.sub,
  });
  const noun = IMPORT_MODEL_NOUNS[model];
  await writeActivity(caller, {
    type: 'import-rollback',
    model,
    batchId,
    message: `${removed.length} ${noun} removed${kept.size > 0 ? `, ${kept.size} kept` : ''}`,
  });
  return {
    batchId,
    model,
    removed: removed.length,
    alreadyRemoved,
    kept: [...kept].map(([id, reason]) => {
      const item = byId.get(id);
      return { _id: id, name: item ? rules.nameOf(item) : id, reason };
    }),
  };
}
