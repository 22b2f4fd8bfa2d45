import type { Caller } from '../../shared/access/caller.ts';
import { headerKeyOf, IMPORT_UPLOAD_MAX_BYTES } from '../../shared/imports/import-api.ts';
import { type ImportMapping, isRecordImport, suggestMapping } from '../../shared/imports/import-mapping.ts';
import { FileFormatError } from '../../shared/imports/text-rows.ts';
import { allAccounts } from '../accounts/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { ApiError, formError } from '../core/lib/errors.ts';
import type { Logger } from '../core/lib/logger.ts';
import { type FileFacts, fileRecords, readHead, withMeterColumn } from './import-file.ts';
import { planImport, planInParts } from './import-plan.ts';
import type { ImportRecord, RowOutcome, UndoEntry } from './import-records.ts';
import {
  changeImport,
  findImport,
  findTemplate,
  listTemplates,
  putRowPages,
  readRowPages,
} from './import-repository.ts';
import { journalRecords, rollBackResumably, writeInParts, writeResumably } from './import-resume.ts';
import {
  planRecords,
  recordJournal,
  rollbackRecords,
  takeBackDeadRun,
  writeRecords,
} from './record-import.ts';

/**
 * The work on an import's file: reading its head, judging its rows, writing and rolling back. It reads
 * spreadsheets (XLSX needs an unzipper) and plans every kind of row, so the calls that only show or claim
 * an import load it on first use rather than with the function.
 */

const recordsOf = (r: ImportRecord, facts: FileFacts) => {
  const records = fileRecords(r.key, facts, r.sheet);
  return r.accountId ? withMeterColumn(records, r.accountId) : records;
};

/**
 * Judges the whole file under the import's mapping, writing nothing but the outcomes; `write` then
 * writes what it found.
 */
export async function dryRun(caller: Caller, r: ImportRecord, mapping: ImportMapping) {
  const facts: FileFacts = { kind: 'csv' };
  try {
    const records = recordsOf(r, facts);
    const type = mapping.type;
    if (isRecordImport(type)) {
      const plan = await planRecords(caller, type, mapping, r.headerRows ?? 1, records, r._id, r.fileName);
      return {
        outcomes: plan.outcomes,
        totals: plan.totals,
        records: plan.items.length,
        write: async (_progress: Progress) => {
          await journalRecords(caller.companyId, r._id, await recordJournal(type, plan));
          const undo = await writeRecords(caller, type, plan, r.fileName);
          return putRowPages<UndoEntry>(caller.companyId, r._id, 'undo', undo);
        },
      };
    }
    const plan = await planImport(caller, mapping, r.headerRows ?? 1, records);
    return {
      outcomes: plan.outcomes,
      totals: plan.totals,
      records: 0,
      write: (progress: Progress) => writeResumably(caller.companyId, r._id, plan, progress),
    };
  } catch (err) {
    if (err instanceof FileFormatError) throw formError({ file: err.message }, err.message);
    throw err;
  }
}

type Progress = (done: number, total: number) => Promise<void>;

/** Rows of a wide half-hourly file judged and written at a time: a few thousand meter-days. */
const ROWS_PER_PART = 6000;

/**
 * Imports a wide half-hourly file a part at a time, each part judged and written before the next is
 * read, so the worker's memory does not grow with the file (a year of 200 meters is 73,000 rows). Only
 * the wide layout: its row is a whole meter-day, while the long layout's days build up across rows.
 */
async function importInParts(caller: Caller, r: ImportRecord, mapping: ImportMapping, progress: Progress) {
  const facts: FileFacts = { kind: 'csv' };
  try {
    const parts = planInParts(caller, mapping, r.headerRows ?? 1, recordsOf(r, facts), ROWS_PER_PART);
    const out = await writeInParts(caller.companyId, r._id, parts, progress, r.preview?.rows ?? 0);
    return { ...out, records: 0 };
  } catch (err) {
    if (err instanceof FileFormatError) throw formError({ file: err.message }, err.message);
    throw err;
  }
}

/** The worker's first look at an arrived file: header, samples, a suggested mapping and matching templates. */
export async function readFileHead(
  companyId: string,
  importId: string,
  size: number | undefined,
): Promise<void> {
  const r = await findImport(companyId, importId);
  if (!r) return;
  const facts: FileFacts = { kind: 'csv' };
  try {
    if (size !== undefined && size > IMPORT_UPLOAD_MAX_BYTES)
      throw new FileFormatError('The file is larger than 100 MB');
    const head = await readHead(recordsOf(r, facts));
    const key = headerKeyOf(head.header);
    const templates = (await listTemplates(companyId)).filter((t) => t.headerKey === key);
    const chosen = r.importTemplateId ? await findTemplate(companyId, r.importTemplateId) : templates[0];
    const suggested =
      chosen?.mapping ??
      suggestMapping(head.header, head.samples, r.typeFromFile ? undefined : r.type).mapping;
    await changeImport(companyId, importId, () => ({
      ...(r.typeFromFile ? { type: suggested.type } : {}),
      fileRead: true,
      fileKind: facts.kind,
      ...(facts.encoding ? { encoding: facts.encoding } : {}),
      ...(facts.delimiter ? { delimiter: facts.delimiter } : {}),
      ...(facts.sheetNames ? { sheetNames: facts.sheetNames, sheet: facts.sheet } : {}),
      header: head.header,
      headerRows: head.headerRows,
      samples: head.samples,
      suggested,
      templates: templates.map((t) => ({ _id: t._id, name: t.name })),
    }));
  } catch (err) {
    if (!(err instanceof FileFormatError)) throw err;
    await changeImport(companyId, importId, () => ({ status: 'error', error: err.message, fileRead: false }));
  }
}

function progressReporter(companyId: string, importId: string, log: Logger) {
  let last = -1;
  let lastAt = 0;
  return async (done: number, total: number) => {
    const pct = total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0;
    if (pct === last || (pct - last < 5 && Date.now() - lastAt < 1000)) return;
    last = pct;
    lastAt = Date.now();
    await changeImport(companyId, importId, () => ({ progress: pct }));
    await publishToCompany(
      companyId,
      { type: 'import.progress', keys: [`/imports/${importId}`], data: { importId, progress: pct } },
      log,
    ).catch(() => 0);
  };
}

/** Runs a claimed import in the worker: the whole file judged again, then written, then its outcomes kept. */
export async function runImport(
  companyId: string,
  importId: string,
  caller: Caller,
  log: Logger,
): Promise<void> {
  const r = await findImport(companyId, importId);
  if (r?.status !== 'processing' || r.results) return;
  try {
    const mapping = r.mapping ?? r.suggested;
    if (!mapping) throw new Error('The import was started without a mapping');
    // A run of this import died midway: what it wrote goes first, so the file is judged as it was.
    if (isRecordImport(mapping.type) && r.writing)
      await takeBackDeadRun(
        caller,
        mapping.type,
        importId,
        await readRowPages<UndoEntry>(companyId, importId, 'journal', 0, r.writing.journal),
      );
    const progress = progressReporter(companyId, importId, log);
    const plan =
      mapping.type === 'half-hourly-wide'
        ? await importInParts(caller, r, mapping, progress)
        : await dryRun(caller, r, mapping).then(async (p) => ({
            ...p,
            // The undo entries are saved by the write itself, so it need not hold them all until it ends.
            undoPages: await p.write(progress),
          }));
    const undoPages = plan.undoPages;
    const pages = await putRowPages(companyId, importId, 'import', plan.outcomes);
    const done = await changeImport(companyId, importId, (cur) => ({
      status: 'completed',
      progress: 100,
      results: plan.totals,
      pages: { ...cur.pages, import: pages, undo: undoPages },
    }));
    // A batch of sites, entities or meters is logged by the resource's own import, under this import's id.
    if (plan.records === 0)
      await writeActivity(caller, {
        type: 'import',
        model: 'imports',
        batchId: importId,
        message: `${plan.totals.create} created, ${plan.totals.update} updated, ${plan.totals.error} failed from ${r.fileName ?? 'a file'}`,
      });
    await publish(companyId, done ?? r, log);
  } catch (err) {
    const message =
      err instanceof ApiError || err instanceof FileFormatError ? err.message : 'The import failed';
    log.error('import failed', { importId, error: err instanceof Error ? err.stack : String(err) });
    const failed = await changeImport(companyId, importId, () => ({ status: 'error', error: message }));
    await publish(companyId, failed ?? r, log);
  }
}

export async function runRollback(
  companyId: string,
  importId: string,
  caller: Caller,
  log: Logger,
): Promise<void> {
  const r = await findImport(companyId, importId);
  if (r?.status !== 'processing' || !r.results || r.rollback) return;
  const undo = await readRowPages<UndoEntry>(companyId, importId, 'undo', 0, r.pages?.undo ?? 0);
  if (isRecordImport(r.type)) {
    const out = await rollbackRecords(caller, r.type, importId, undo);
    const pages = await putRowPages(companyId, importId, 'rollback', out.kept);
    const done = await changeImport(companyId, importId, (cur) => ({
      status: 'rolled-back',
      progress: 100,
      rollback: { restored: out.restored, removed: out.removed, kept: out.kept.length },
      pages: { ...cur.pages, rollback: pages },
    }));
    await publish(companyId, done ?? r, log);
    return;
  }
  const accounts = new Map((await allAccounts(companyId)).map((a) => [a._id, a]));
  const out = await rollBackResumably(
    companyId,
    importId,
    accounts,
    undo,
    progressReporter(companyId, importId, log),
  );
  const kept: RowOutcome[] = out.kept.map((k) => ({
    row: k.row,
    outcome: 'unchanged',
    field: 'meter',
    reason: `${k.period}: ${k.reason}`,
  }));
  const pages = await putRowPages(companyId, importId, 'rollback', kept);
  const done = await changeImport(companyId, importId, (cur) => ({
    status: 'rolled-back',
    progress: 100,
    rollback: { restored: out.restored, removed: out.removed, kept: out.kept.length },
    pages: { ...cur.pages, rollback: pages },
  }));
  await writeActivity(caller, {
    type: 'import-rollback',
    model: 'imports',
    batchId: importId,
    message: `${out.removed} removed, ${out.restored} restored${out.kept.length ? `, ${out.kept.length} kept as edited since` : ''}`,
  });
  await publish(companyId, done ?? r, log);
}

async function publish(companyId: string, r: ImportRecord, log: Logger) {
  await publishToCompany(
    companyId,
    {
      type: 'import.status',
      keys: ['/imports', `/imports/${r._id}`],
      data: { importId: r._id, status: r.status, progress: r.progress },
    },
    log,
  ).catch(() => 0);
}
