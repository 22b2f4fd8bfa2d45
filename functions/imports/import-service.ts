import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { csvField } from '../../shared/files/csv.ts';
import {
  headerKeyOf,
  IMPORT_UPLOAD_MAX_BYTES,
  importItemsQuery,
  importUploadQuery,
} from '../../shared/imports/import-api.ts';
import {
  type ImportMapping,
  importMappingBody,
  mappingProblems,
} from '../../shared/imports/import-mapping.ts';
import { neutraliseCell } from '../../shared/imports/import-values.ts';
import type { FailedRows } from '../../shared/schemas/responses/imports.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { ApiError, conflict, formError, notFound, readOnly } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import type { ImportRecord, RowOutcome } from './import-records.ts';
import {
  changeImport,
  createImport,
  findImport,
  findTemplate,
  putRowPages,
  putTemplate,
  ROWS_PER_PAGE,
  readRowPages,
} from './import-repository.ts';
import { importKey, presentImport } from './import-request.ts';

/**
 * Imports of spreadsheets: the file goes straight to the uploads bucket by a signed PUT, the worker reads
 * its header and a few rows, the caller maps columns to fields, a dry run judges every row, and the import
 * and its rollback run in the worker, telling the browser their progress over the live connection.
 */

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
export function checkedMapping(r: ImportRecord, mapping: ImportMapping | undefined): ImportMapping {
  // Reading the header suggests a mapping: an import without one has not had its file read.
  if (!r.fileRead || !r.header || !mapping)
    throw new ApiError(409, 'FILE_NOT_READ', 'The file has not been read yet');
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
  if (sheetChanged) await (await import('./import-run.ts')).readFileHead(companyId, r._id, undefined);
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

const preview = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const r = await loadImport(ctx.caller, ctx.params.id);
  const given =
    ctx.body && typeof ctx.body === 'object' && 'mapping' in ctx.body
      ? parseOrThrow(importMappingBody, ctx.body).mapping
      : undefined;
  const mapping = checkedMapping(r, given ?? r.mapping ?? r.suggested);
  const { dryRun } = await import('./import-run.ts');
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
  checkedMapping(r, r.mapping ?? r.suggested);
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
  return {
    body: { fileName: `failed-rows-${r._id}.csv`, contentType: 'text/csv', csv } satisfies FailedRows,
  };
});

const READ_ONLY = 'Imports are started with GET /imports/upload-url and changed only through their own calls';

const readOnlyImport = operation({}, async (): Promise<OpResult> => {
  throw readOnly(READ_ONLY);
});

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
