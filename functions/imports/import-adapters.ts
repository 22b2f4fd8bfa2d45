import type { Caller } from '../../shared/access/caller.ts';
import { importFileQuery } from '../../shared/schemas/import-file-query.ts';
import { ApiError, conflict, formError } from '../core/lib/errors.ts';
import type { Logger } from '../core/lib/logger.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import type { RowOutcome } from './import-records.ts';
import { changeImport, findImport, readRowPages } from './import-repository.ts';
import { keepFile, presentImport } from './import-request.ts';
import { checkedMapping } from './import-service.ts';

/**
 * The one-call imports of monthly consumption: the file comes in the request and goes through the same
 * steps as one uploaded by the wizard (kept in the uploads bucket, its header read, the suggested mapping,
 * the whole file judged and written). POST /consumptions/upload runs them at once; a meter's file
 * (POST /accounts/{id}/consumption-import) runs them in the imports worker. `/imports/{id}/rollback` takes
 * either back.
 */

/** Failed rows listed in the answer; the rest are at `/imports/{id}/items`. */
const LISTED_ERRORS = 200;

const importAtOnce = operation({ query: importFileQuery }, async (ctx): Promise<OpResult> => {
  const { readFileHead, runImport } = await import('./import-run.ts');
  const { record, size } = await keepFile(ctx);
  const caller = ctx.caller;
  const companyId = caller.companyId;
  const id = record._id;
  await readFileHead(companyId, id, size);
  const read = await findImport(companyId, id);
  if (!read || read.status === 'error' || !read.fileRead) {
    const message = read?.error ?? 'The file could not be read';
    throw formError({ file: message }, message);
  }
  const mapping = checkedMapping(read, read.suggested && { ...read.suggested, type: 'monthly-consumption' });
  const claimed = await changeImport(companyId, id, (cur) =>
    cur.status === 'pending' ? { status: 'processing', progress: 0, mapping } : undefined,
  );
  if (!claimed) throw conflict('This import is running or has already run');
  await runImport(companyId, id, caller, ctx.log);
  const done = (await findImport(companyId, id)) ?? claimed;
  if (done.status === 'error') {
    const message = done.error ?? 'The import failed';
    throw formError({ file: message }, message);
  }
  const rows = await readRowPages<RowOutcome>(companyId, id, 'import', 0, done.pages?.import ?? 0);
  const errors = rows
    .filter((o) => o.outcome === 'error')
    .slice(0, LISTED_ERRORS)
    .map(({ cells: _cells, ...rest }) => rest);
  return { status: 201, body: { ...presentImport(done), errors } };
});

export const IMPORT_ADAPTER_OPERATIONS: Operations = {
  'imports.consumptionUpload': importAtOnce,
};

/** The worker's side of a queued one-meter import: read the file, map its columns, import it. */
export async function runQueuedImport(
  companyId: string,
  importId: string,
  caller: Caller,
  log: Logger,
): Promise<void> {
  const r = await findImport(companyId, importId);
  if (r?.status !== 'pending') return;
  const { readFileHead, runImport } = await import('./import-run.ts');
  await readFileHead(companyId, importId, undefined);
  const read = await findImport(companyId, importId);
  if (!read?.fileRead || !read.header || !read.suggested) return;
  try {
    const suggested = read.suggested;
    // The meter is the column the worker added, whatever else the file's header looks like.
    const mapping = checkedMapping(read, {
      ...suggested,
      type: 'monthly-consumption',
      columns: { ...suggested.columns, meter: read.header.length - 1 },
    });
    const claimed = await changeImport(companyId, importId, (cur) =>
      cur.status === 'pending' ? { status: 'processing', progress: 0, mapping } : undefined,
    );
    if (!claimed) return;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await changeImport(companyId, importId, () => ({ status: 'error', error: err.message }));
    return;
  }
  await runImport(companyId, importId, caller, log);
}
