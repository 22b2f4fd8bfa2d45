import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { csvField } from '../../shared/files/csv.ts';
import {
  headerKeyOf,
  IMPORT_UPLOAD_MAX_BYTES,
  importItemsQuery,
  importMappingBody,
  importUploadQuery,
} from '../../shared/imports/import-api.ts';
import {
  type ImportMapping,
  isRecordImport,
  mappingProblems,
  suggestMapping,
} from '../../shared/imports/import-mapping.ts';
import { neutraliseCell } from '../../shared/imports/import-values.ts';
import { FileFormatError } from '../../shared/imports/text-rows.ts';
import { allAccounts } from '../accounts/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { ApiError, conflict, formError, notFound, readOnly } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { type FileFacts, fileRecords, readHead, withMeterColumn } from './import-file.ts';
import { planImport } from './import-plan.ts';
import type { ImportRecord, RowOutcome, UndoEntry } from './import-records.ts';
import {
  changeImport,
  createImport,
  findImport,
  findTemplate,
  listTemplates,
  putRowPages,
  putTemplate,
  ROWS_PER_PAGE,
  readRowPages,
} from './import-repository.ts';
import { importKey, presentImport } from './import-request.ts';
import { rollbackEntries, writePlan } from './import-writer.ts';
import { planRecords, rollbackRecords, writeRecords } from './record-import.ts';

/**
 * Imports of spreadsheets: the file goes straight to the uploads bucket by a signed PUT, the worker reads
 * its header and a few rows, the caller maps columns to fields, a dry run judges every row, and the import
 * and its rollback run in the worker, telling the browser their progress over the live connection.
 */

const recordsOf = (r: ImportRecord, facts: FileFacts) => {
  const records = fileRecords(r.key, facts, r.sheet);
  return r.accountId ? withMeterColumn(records, r.accountId) : records;
};

/** An import of the caller's company; a caller with access to only some meters sees only their own. */
export async function loadImport(caller: Caller, id: string): Promise<ImportRecord> {
  const found = await findImport(caller.companyId, id);
  if (!found || (!isCompanyWide(caller) && found.createdBy !== caller.sub))
    throw notFound('There is no such import');
  return found;
}

const uploadUrl = operation({ query: importUploadQuery }, async (ctx): Promise<OpResult> => {
  const { type, importTemplateId, fileName = 'import.csv', size } = ctx.query;
  const companyId = ctx.caller.companyId;
  if (importTemplateId && !(await findTemplate(companyId, importTemplateId)))
    throw formError({ importTemplateId: 'There is no such import template' });
  const id = newId();
  const now = new Date().toISOString();
  const record: ImportRecord = {
    _id: id,
    companyId,
    type,
    ...(importTemplateId ? { importTemplateId } : {}),
    fileName,
    key: importKey(companyId, id, fileName),
    status: 'pending',
    progress: 0,
    fileRead: false,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await createImport(record);
  const url = await presignPut(bucketName('uploads'), record.key, 'application/octet-stream', { size });
  return {
    status: 201,
    body: {
      id,
      url,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      maxBytes: IMPORT_UPLOAD_MAX_BYTES,
    },
  };
});

const getImport = operation(
  { params: ['id'] },
  async (ctx): Promise<OpResult> => ({
    body: presentImport(await loadImport(ctx.caller, ctx.params.id)),
  }),
);

const info = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const r = await loadImport(ctx.caller, ctx.params.id);
  return {
    body: {
      id: r._id,
      type: r.type,
      status: r.status,
      fileRead: r.fileRead,
      ...(r.error ? { error: r.error } : {}),
      fileKind: r.fileKind,
      encoding: r.encoding,
      delimiter: r.delimiter,
      sheetNames: r.sheetNames,
      sheet: r.sheet,
      columns: (r.header ?? []).map((name, index) => ({ index, name })),
      samples: r.samples ?? [],
      suggested: r.suggested,
      mapping: r.mapping ?? r.suggested,
      templates: r.templates ?? [],
    },
  };
});

/** The mapping of a body, checked against the file's header. */
export function checkedMapping(r: ImportRecord, mapping: ImportMapping): ImportMapping {
  if (!r.fileRead || !r.header) throw new ApiError(409, 'FILE_NOT_READ', 'The file has not been read yet');
  const problems = mappingProblems(mapping, r.header.length);
  if (Object.keys(problems).length > 0)
    throw formError(
      Object.fromEntries(Object.entries(problems).map(([k, v]) => [`mapping.${k}`, v])),
      'The mapping cannot be used with this file',
    );
  return mapping;
}

const saveMapping = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  // Another company's import is not found, whatever the body: the body is judged only for one's own.
  const r = await loadImport(ctx.caller, ctx.params.id);
  const body = parseOrThrow(importMappingBody, ctx.body ?? {});
  const mapping = checkedMapping(r, body.mapping);
  if (r.status !== 'pending') throw conflict('This import has already run');
  const sheetChanged = body.sheet !== undefined && body.sheet !== r.sheet;
  const saved = await changeImport(companyId, r._id, () => ({
    mapping,
    type: mapping.type,
    ...(sheetChanged ? { sheet: body.sheet, fileRead: false } : {}),
  }));
  if (sheetChanged) await readFileHead(companyId, r._id, undefined);
  if (body.templateName && r.header) {
    const now = new Date().toISOString();
    await putTemplate({
      _id: newId(),
      companyId,
      name: body.templateName,
      type: mapping.type,
      headerKey: headerKeyOf(r.header),
      mapping,
      createdAt: now,
      updatedAt: now,
      createdBy: ctx.caller.sub,
    });
  }
  return { body: saved ? presentImport(saved) : presentImport(r) };
});

/**
 * Judges the whole file under the import's mapping, writing nothing but the outcomes; `write` then
 * writes what it found.
 */
async function dryRun(caller: Caller, r: ImportRecord, mapping: ImportMapping) {
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
        write: (_progress: Progress) => writeRecords(caller, type, plan, r.fileName),
      };
    }
    const plan = await planImport(caller, mapping, r.headerRows ?? 1, records);
    return {
      outcomes: plan.outcomes,
      totals: plan.totals,
      records: 0,
      write: (progress: Progress) => writePlan(caller.companyId, plan, progress),
    };
  } catch (err) {
    if (err instanceof FileFormatError) throw formError({ file: err.message }, err.message);
    throw err;
  }
}

type Progress = (done: number, total: number) => Promise<void>;

const preview = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const r = await loadImport(ctx.caller, ctx.params.id);
  const given =
    ctx.body && typeof ctx.body === 'object' && 'mapping' in ctx.body
      ? parseOrThrow(importMappingBody, ctx.body).mapping
      : undefined;
  const mapping = checkedMapping(r, given ?? r.mapping ?? (r.suggested as ImportMapping));
  const plan = await dryRun(ctx.caller, r, mapping);
  const pages = await putRowPages(companyId, r._id, 'preview', plan.outcomes);
  await changeImport(companyId, r._id, (cur) => ({
    mapping,
    preview: plan.totals,
    pages: { ...cur.pages, preview: pages },
  }));
  return {
    body: {
      id: r._id,
      totals: plan.totals,
      rows: plan.outcomes.slice(0, ROWS_PER_PAGE).map(withoutCells),
      pages,
    },
  };
});

const withoutCells = ({ cells: _cells, ...rest }: RowOutcome) => rest;

const startImport = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const r = await loadImport(ctx.caller, ctx.params.id);
  checkedMapping(r, r.mapping ?? (r.suggested as ImportMapping));
  const claimed = await changeImport(companyId, r._id, (cur) =>
    cur.status === 'pending' && cur.fileRead
      ? { status: 'processing', progress: 0, mapping: cur.mapping ?? cur.suggested }
      : undefined,
  );
  if (!claimed) throw conflict('This import is running or has already run');
  await sendToQueue('imports', [{ companyId, importId: r._id, action: 'import', sub: ctx.caller.sub }]);
  return { status: 202, body: presentImport(claimed) };
});

const startRollback = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const r = await loadImport(ctx.caller, ctx.params.id);
  const claimed = await changeImport(companyId, r._id, (cur) =>
    cur.status === 'completed' ? { status: 'processing', progress: 0 } : undefined,
  );
  if (!claimed) throw conflict('Only a completed import can be rolled back');
  await sendToQueue('imports', [{ companyId, importId: r._id, action: 'rollback', sub: ctx.caller.sub }]);
  return { status: 202, body: presentImport(claimed) };
});

const items = operation({ params: ['id'], query: importItemsQuery }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const r = await loadImport(ctx.caller, ctx.params.id);
  const { stage, outcome, page } = ctx.query;
  const total = r.pages?.[stage] ?? 0;
  const rows = page < total ? await readRowPages<RowOutcome>(companyId, r._id, stage, page, 1) : [];
  return {
    body: {
      stage,
      page,
      pages: total,
      rows: rows.filter((o) => !outcome || o.outcome === outcome).map(withoutCells),
    },
  };
});

/** The rows that failed, as CSV with the reason first: cells that a spreadsheet would run are neutralised. */
const failedRows = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const r = await loadImport(ctx.caller, ctx.params.id);
  const stage = r.pages?.import ? 'import' : 'preview';
  const rows = (await readRowPages<RowOutcome>(companyId, r._id, stage, 0, r.pages?.[stage] ?? 0)).filter(
    (o) => o.outcome === 'error',
  );
  const lines = [
    ['row', 'field', 'reason', ...(r.header ?? [])],
    ...rows.map((o) => [String(o.row), o.field ?? '', o.reason ?? '', ...(o.cells ?? [])]),
  ];
  const csv = `${lines.map((l) => l.map((c) => csvField(neutraliseCell(c))).join(',')).join('\r\n')}\r\n`;
  return { body: { fileName: `failed-rows-${r._id}.csv`, contentType: 'text/csv', csv } };
});

const READ_ONLY = 'Imports are started with GET /imports/upload-url and changed only through their own calls';

const readOnlyImport = async (): Promise<OpResult> => {
  throw readOnly(READ_ONLY);
};

/** An import the caller cannot see is not found, before they learn it cannot be changed this way. */
const readOnlyOneImport = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  await loadImport(ctx.caller, ctx.params.id);
  throw readOnly(READ_ONLY);
});

export const IMPORTS_OPERATIONS: Operations = {
  'imports.readOnly': readOnlyImport,
  'imports.readOnlyOne': readOnlyOneImport,
  'imports.uploadUrl': uploadUrl,
  'imports.get': getImport,
  'imports.info': info,
  'imports.mapping': saveMapping,
  'imports.preview': preview,
  'imports.import': startImport,
  'imports.rollback': startRollback,
  'imports.items': items,
  'imports.failedRows': failedRows,
};

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
    const mapping = r.mapping ?? (r.suggested as ImportMapping);
    const plan = await dryRun(caller, r, mapping);
    const undo = await plan.write(progressReporter(companyId, importId, log));
    const pages = await putRowPages(companyId, importId, 'import', plan.outcomes);
    const undoPages = await putRowPages<UndoEntry>(companyId, importId, 'undo', undo);
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
  const out = await rollbackEntries(companyId, accounts, undo, progressReporter(companyId, importId, log));
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
